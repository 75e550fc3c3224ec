/// What was given on the command line for one command (plus the global options and flags).
///
/// Options and flags are keyed by name (what the command line names them by); positionals by
/// the declared `Positional` itself, since a positional's name is only what help shows.
public struct ParsedArguments: Sendable {
    private var optionValues: [String: [String]] = [:]
    private var givenFlags: Set<String> = []
    private var positionalValues: [Positional: [String]] = [:]

    init() {}

    public subscript(flag: Flag) -> Bool {
        givenFlags.contains(flag.name)
    }

    /// The last occurrence, else the option's default value, else nil.
    public subscript(option: Option) -> String? {
        optionValues[option.name]?.last ?? option.defaultValue
    }

    /// Every occurrence, in command-line order; the default value is not included.
    public func values(_ option: Option) -> [String] {
        optionValues[option.name] ?? []
    }

    /// The positional's value (the first one, for a repeating positional), or nil if not given.
    public subscript(positional: Positional) -> String? {
        positionalValues[positional]?.first
    }

    /// Every value of a repeating positional, in order.
    public func values(_ positional: Positional) -> [String] {
        positionalValues[positional] ?? []
    }

    /// Converts an option's value (or its default); nil when there is neither.
    ///
    /// A value that `transform` rejects throws `UsageError.invalidValue`, with `expected`
    /// describing what would have been accepted (e.g. "a positive integer").
    public func value<T>(
        _ option: Option, as expected: String, _ transform: (String) -> T?
    ) throws(UsageError) -> T? {
        guard let text = self[option] else { return nil }
        guard let value = transform(text) else {
            throw .invalidValue(option: option.displayName, value: text, expected: expected)
        }
        return value
    }

    mutating func append(_ value: String, for option: Option) {
        optionValues[option.name, default: []].append(value)
    }

    mutating func set(_ flag: Flag) {
        givenFlags.insert(flag.name)
    }

    mutating func set(_ values: [String], for positional: Positional) {
        positionalValues[positional] = values
    }
}
