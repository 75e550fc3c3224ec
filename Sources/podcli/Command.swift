import Arguments
import PodcliKit

/// A podcli subcommand: declared once as data (`spec`, from which parsing and `--help` come),
/// then run with what was parsed.
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    /// A group's commands, whose specs are `spec.subcommands`; empty for a command that runs itself.
    static var subcommands: [any Command.Type] { get }
    /// - Throws: `UsageError` for arguments the parser could not judge, or whatever the work
    ///   throws; `main` turns either into one line on stderr and an exit code.
    static func run(_ arguments: ParsedArguments, in context: Context) throws
}

extension Command {
    static var subcommands: [any Command.Type] { [] }
}
