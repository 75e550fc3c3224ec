/// A boolean flag: `--name`, `-n`. Present means true; a flag takes no value.
public struct Flag: Sendable, Hashable {
    /// The long name, without dashes.
    public let name: String
    public let short: Character?
    public let help: String

    public init(_ name: String, short: Character? = nil, help: String) {
        precondition(!name.isEmpty && !name.hasPrefix("-"), "Flag names are given without dashes")
        self.name = name
        self.short = short
        self.help = help
    }

    /// The name as typed on the command line: `--name`.
    var displayName: String { "--" + name }
}
