import Arguments
import Dispatch
import Downloads
import EpisodeStore
import FoundationEssentials
import GPodderSync
import PodcliKit

/// `podcli sync`: what cron or a systemd timer runs: refresh every feed, apply retention,
/// download what policy asks for. One at a time per data directory.
enum Sync: Command {
    static let jobs = Option(
        "jobs", short: "j", valueName: "n", help: "Feeds refreshed and episodes downloaded at once (config: jobs).")
    static let limitRate = Option(
        "limit-rate", valueName: "rate",
        help: "Bytes per second for all downloads together, e.g. 500K or 2M (config: limit-rate).")
    static let wait = Flag("wait", help: "Wait for a sync already running to finish, instead of exiting with 75.")
    static let noRemote = Flag("no-remote", help: "Do not exchange with the sync server (gpodder-server) this time.")

    static let spec = CommandSpec(
        name: "sync", abstract: "Refresh every feed, delete what retention says, download what policy asks for.",
        discussion: discussion,
        options: [jobs, limitRate], flags: [wait, noRemote], group: .maintenance,
        examples: [
            Example(
                "podcli sync --quiet --limit-rate 500K",
                "What cron runs: refresh, delete, download, printing only failures.")
        ])

    static let discussion = """
        What cron or a systemd timer runs ('17 * * * * /usr/local/bin/podcli sync --quiet'). It \
        prints what it did, then one summary line:
          #3 The Daily Show: 2 new
          Deleted #41 Old Episode: played more than 14 days ago
          Downloaded #97 Tuesday (48.2 MiB)
          Synced 12 feeds, 2 new, 2 downloaded (96.1 MiB), 1 deleted (51.0 MiB) in 9.4 s

        Policy comes from the configuration file ('podcli config list'):
        - Refreshing: every feed with a conditional GET, --jobs at a time (host-connections from one \
        host). A feed or episode that failed three times in a row waits an hour, then two, four, ... \
        up to a day.
        - Downloading, newest first: what download asks for (new, all or none), within max-age, \
        max-size and the newest keep of a feed. A download cut short earlier is resumed. No \
        download goes past stream-max-size or stream-max-time; --limit-rate caps them all together.
        - Disk: the newest go first while disk-budget allows, and none leaves less than min-free \
        free (checked again every 4 MiB as it writes). A full disk stops the downloads left, exit \
        74, with no episode put into backoff.
        - Retention, in two steps: before the downloads, played episodes delete-played-after days \
        after they were played; after them, a feed's downloads beyond the newest keep. Never \
        deleted: an episode you keep ('podcli keep'), one in the queue, one being played.
        - Measuring: each download, and up to 10 older downloads not measured yet, per run.

        A feed or download that fails does not stop the others: it is one line on stderr, recorded \
        ('podcli feeds', 'podcli list'), and the exit code is the first failure's. With --quiet \
        nothing is printed unless something failed. Each run appends to sync.log in \
        $XDG_STATE_HOME/podcli (or the --home directory), which becomes sync.log.1 past 256 KiB.

        When it downloaded episodes and a notification server is on the session bus, one desktop \
        notification lists them, with a Play action (under cron, set DBUS_SESSION_BUS_ADDRESS, \
        e.g. unix:path=/run/user/UID/bus). With gpodder-server set, it first exchanges subscriptions \
        and positions with that server ('podcli help remote').

        Exit status: 65 when content is bad or over a size limit, 69 when a server cannot be \
        reached, 74 when the disk is full, 75 when another sync runs (without --wait), 77 when the \
        sync server refuses the password.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        var config = try context.config()
        for (option, setting) in [(jobs, Setting.jobs), (limitRate, .limitRate)] {
            guard let value = arguments[option] else { continue }
            do throws(ConfigValue.Problem) {
                try setting.apply(value, to: &config)
            } catch {
                throw UsageError.invalidValue(option: "--\(option.name)", value: value, expected: error.expected)
            }
        }
        let library = try context.library()
        let lock = try SyncLock(directory: library.directory, wait: arguments[wait])
        let log = SyncLog(directory: try context.directories.get().state)
        try log.check()
        let started = DispatchTime.now().uptimeNanoseconds
        let synchronizer = Synchronizer(
            libraryDirectory: library.directory, config: config, downloadPolicy: context.runPolicy,
            feedPolicy: context.feedFetcherPolicy, reporter: SyncProgress(output: context.output))
        let remote =
            arguments[noRemote] ? nil : exchange(config, library: library, refresh: synchronizer.refresh, in: context)
        let report = try withExtendedLifetime(lock) { try synchronizer.run(library) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let summary = report.summary + " in \(Formatting.oneDecimal(seconds)) s"
        // A result, not a diagnostic: `podcli sync > report` keeps it (--quiet leaves it out).
        context.output.print("Synced " + summary)
        log.append(
            ["\(Formatting.time(Int(Date().timeIntervalSince1970))) sync: \(summary)"] + (remote?.logLines ?? [])
                + report.failures.map { "  failed: \($0.line)" } + report.warnings.map { "  warning: \($0)" })
        NewEpisodesNotice.post(report.newestFirst, environment: context.environment, helpers: Helpers(context: context))
        // The exchange failed first: its code is the run's.
        let codes =
            (remote?.failure.map { [ExitCode(for: $0)] } ?? []) + report.failures.map { exitCode(for: $0.cause) }
        guard let code = codes.first else { return }
        // One failure is told by its own line (a laptop with no network: one line in all).
        guard codes.count > 1 else { throw AlreadyTold(exitCode: code) }
        throw CommandFailure(
            description: "sync: " + Formatting.count(codes.count, "failure") + " (see above)", exitCode: code)
    }

    /// Every URL sync fetches came from the library, never from its command line: one it cannot
    /// fetch (an `ftp:` enclosure an older podcli recorded) is a feed's bad content, not usage.
    private static func exitCode(for cause: Error) -> ExitCode {
        if case DownloadError.invalidURL = cause { return .badContent }
        return ExitCode(for: cause)
    }

    /// What the exchange with the sync server came to: lines for the log, and its failure.
    private struct RemoteResult {
        var logLines: [String]
        var failure: (any Error)?
    }

    /// Exchanges with the sync server when one is set, first, so what comes down (a subscription,
    /// a feed unsubscribed) is part of this sync: its summary printed, or its failure told in one
    /// line (the rest of the sync runs all the same). Nil with no server set.
    private static func exchange(
        _ config: Config, library: Library, refresh: @escaping ([Feed]) -> Void, in context: Context
    ) -> RemoteResult? {
        let settings = config.remote
        guard let url = settings.server else { return nil }
        do {
            guard let account = try settings.account(environment: context.environment) else { return nil }
            // Not the run's policy: a sync server that cannot be reached says nothing of the feeds' hosts.
            let server = SyncServer(account: account, policy: context.downloadPolicy)
            let exchange = RemoteExchange(library: library, server: server, settings: settings, refresh: refresh)
            let summary = "Exchanged with \(url): " + (try exchange.run()).summary
            context.output.print(summary)
            return RemoteResult(logLines: ["  " + summary], failure: nil)
        } catch {
            let line = "sync server: \(error)"
            context.output.error(line)
            return RemoteResult(logLines: ["  failed: " + line], failure: error)
        }
    }
}
