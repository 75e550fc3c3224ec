/// A command (or subcommand) declared as data; parsing and help are both derived from it.
///
/// A command with subcommands is a group: it takes a subcommand name instead of positionals,
/// unless it declares positionals too: then a first word that names no subcommand runs the
/// group itself.
public struct CommandSpec: Sendable {
    public let name: String
    /// One line, shown after `OVERVIEW:` and in the parent's `SUBCOMMANDS:` list.
    public let abstract: String
    /// Longer text for help; lines are kept, long lines wrapped at 80 columns.
    public let discussion: String
    public let positionals: [Positional]
    public let options: [Option]
    public let flags: [Flag]
    public let subcommands: [CommandSpec]
    /// Parsed like any other, but left out of its parent's help and of "did you mean" (a command
    /// podcli runs itself, not one for people).
    public let isHidden: Bool

    public init(
        name: String, abstract: String, discussion: String = "",
        positionals: [Positional] = [], options: [Option] = [], flags: [Flag] = [],
        subcommands: [CommandSpec] = [], isHidden: Bool = false
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.positionals = positionals
        self.options = options
        self.flags = flags
        self.subcommands = subcommands
        self.isHidden = isHidden
    }

    /// A copy with `subcommands` replaced; used to add the automatic `help` subcommand.
    func with(subcommands: [CommandSpec]) -> CommandSpec {
        CommandSpec(
            name: name, abstract: abstract, discussion: discussion, positionals: positionals,
            options: options, flags: flags, subcommands: subcommands, isHidden: isHidden)
    }
}
