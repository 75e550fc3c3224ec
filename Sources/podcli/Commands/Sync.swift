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
        discussion: """
            Policy comes from the configuration file ('podcli config list'). A feed or download that fails \
            does not stop the others: it is reported on stderr, recorded (see 'podcli feeds' and 'podcli list') \
            and makes the exit code non-zero. With --quiet nothing is printed unless something failed. Each run \
            appends a summary to sync.log in $XDG_STATE_HOME/podcli (or the --home directory). When it \
            downloaded episodes and a notification server is on the session bus, one desktop notification \
            lists them, with a Play action that starts the newest. With gpodder-server set, it first exchanges \
            subscriptions and positions with that server ('podcli remote status'); a server that cannot be \
            reached leaves the rest of the sync to run, and sets the exit code (69, or 77 for a refused password).
            """,
        options: [jobs, limitRate], flags: [wait, noRemote], group: .maintenance,
        examples: [
            Example(
                "podcli sync --quiet --limit-rate 500K",
                "What cron runs: refresh, delete, download, printing only failures.")
        ])

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
