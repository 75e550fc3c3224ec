import Arguments
import PodcliKit

/// `podcli remote`: the gpodder.net-API server `sync` exchanges with. A group: its subcommands do
/// the work.
enum RemoteCommand: Command {
    static let subcommands: [any Command.Type] = [RemoteStatusCommand.self]

    static let spec = CommandSpec(
        name: "remote", abstract: "The sync server (gpodder-server) that 'podcli sync' exchanges with.",
        subcommands: subcommands.map { $0.spec }, group: .maintenance)

    /// Not reached: the parser refuses a group named without one of its subcommands.
    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        throw UsageError.missingCommand
    }
}

/// `podcli remote status`: the server, the last exchange, what waits to go up, the last error.
enum RemoteStatusCommand: Command {
    static let json = Flag(
        "json",
        help: "Print it as a JSON object: server, user, device, api, last_exchange (Unix seconds), "
            + "waiting (by action), last_error, last_error_at, note.")

    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the sync server, the last exchange, what waits to go up and the last error.",
        flags: [json])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let report = try RemoteReport(settings: context.config().remote, library: context.library())
        if arguments[json] {
            context.output.json(try EpisodeReport.json(report))
            return
        }
        for line in report.lines { context.output.print(line, always: true) }
    }
}
