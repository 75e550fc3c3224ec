/// An option taking a value: `--name VALUE`, `--name=VALUE`, `-n VALUE`.
///
/// Given more than once, every value is kept (see `ParsedArguments.values(_:)`);
/// the subscript reads the last one.
public struct Option: Sendable, Hashable {
    /// The long name, without dashes.
    public let name: String
    public let short: Character?
    /// Shown in help as `<valueName>`; give it without angle brackets.
    public let valueName: String
    public let help: String
    /// Used when the option is not given; shown in help as `(default: …)`.
    public let defaultValue: String?
    /// What the value may be (fixed choices are checked while parsing).
    public let domain: ValueDomain

    public init(
        _ name: String, short: Character? = nil, valueName: String, help: String,
        defaultValue: String? = nil, domain: ValueDomain = .any
    ) {
        precondition(!name.isEmpty && !name.hasPrefix("-"), "Option names are given without dashes")
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.domain = domain
    }

    /// The name as typed on the command line: `--name`.
    var displayName: String { "--" + name }
}
