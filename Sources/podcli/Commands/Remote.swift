import Arguments
import PodcliKit

/// `podcli remote`: the gpodder.net-API server `sync` exchanges with. A group: its subcommands do
/// the work.
enum RemoteCommand: Command {
    static let subcommands: [any Command.Type] = [RemoteStatusCommand.self]

    static let spec = CommandSpec(
        name: "remote", abstract: "The sync server (gpodder-server) that 'podcli sync' exchanges with.",
        discussion: discussion,
        subcommands: subcommands.map { $0.spec }, group: .maintenance)

    static let discussion = """
        With gpodder-server set, 'podcli sync' first exchanges with a gpodder.net-API server \
        (gpodder.net, opodsync) or a Nextcloud with the gPodder Sync app (gpodder-api nextcloud); \
        --no-remote skips it once.
          podcli config set gpodder-server https://gpodder.net
          podcli config set gpodder-user alice
          podcli config set gpodder-password-command 'pass show gpodder.net'

        - The password is the first line the command prints (run by /bin/sh, given 60 s), or \
        PODCLI_GPODDER_PASSWORD; it is never stored or shown.
        - The device (gpodder-device, default podcli-HOSTNAME) is registered on first use and \
        linked with the account's other devices (gpodder-link-devices off keeps it apart).
        - What travels: subscriptions both ways (a URL the server rewrites is taken), positions, \
        downloads, deletions, unplayed marks. The newest position wins; one within 30 s of the \
        end marks the episode played. Changes wait in the library until the server took them.
        - Nextcloud's app keeps only play actions from its version 3.13.3 on ('remote status' \
        says so). On gpodder-fastapi-router only the device that subscribed can unsubscribe a feed \
        for the others.

        Exit status (of sync): 64 when gpodder-user or the password command is missing, 69 when \
        the server cannot be reached or fails (or the password command does), 77 when it refuses \
        the user or password.
        """

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
        discussion: discussion,
        flags: [json])

    static let discussion = """
        --json keys: server, user, device, api, last_exchange, waiting, last_error, last_error_at, note
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let report = try RemoteReport(settings: context.config().remote, library: context.library())
        if arguments[json] {
            context.output.json(try EpisodeReport.json(report))
            return
        }
        for line in report.lines { context.output.print(line, always: true) }
    }
}
