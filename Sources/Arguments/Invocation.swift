/// The command to run: its path from the root (`["podcli", "queue", "add"]`), its spec,
/// and its arguments.
public struct Invocation: Sendable {
    public let commandPath: [String]
    public let command: CommandSpec
    /// The command's own options, flags and positionals, plus the global options and flags.
    public let arguments: ParsedArguments
}
