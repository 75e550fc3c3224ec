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
    /// Where the parent's help and the man page list this command; nil: with the ungrouped ones.
    public let group: CommandGroup?
    /// Command lines worth copying, shown in the man page.
    public let examples: [Example]

    public init(
        name: String, abstract: String, discussion: String = "",
        positionals: [Positional] = [], options: [Option] = [], flags: [Flag] = [],
        subcommands: [CommandSpec] = [], isHidden: Bool = false, group: CommandGroup? = nil,
        examples: [Example] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.positionals = positionals
        self.options = options
        self.flags = flags
        self.subcommands = subcommands
        self.isHidden = isHidden
        self.group = group
        self.examples = examples
    }

    /// A copy with `subcommands` replaced; used to add the automatic `help` subcommand.
    func with(subcommands: [CommandSpec]) -> CommandSpec {
        CommandSpec(
            name: name, abstract: abstract, discussion: discussion, positionals: positionals,
            options: options, flags: flags, subcommands: subcommands, isHidden: isHidden, group: group,
            examples: examples)
    }
}

/// The headings `--help` and the man page list a program's commands under.
public enum CommandGroup: String, Sendable, CaseIterable {
    case library, playback, remoteControl, maintenance

    public var title: String {
        switch self {
        case .library: return "Library"
        case .playback: return "Playback"
        case .remoteControl: return "Remote control"
        case .maintenance: return "Maintenance"
        }
    }
}

/// A command line and what it does, for the man page's EXAMPLES.
public struct Example: Sendable, Hashable {
    public let command: String
    public let explanation: String

    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}
