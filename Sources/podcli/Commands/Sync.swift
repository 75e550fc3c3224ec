import Arguments
import Dispatch
import Downloads
import EpisodeStore
import FoundationEssentials
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

    static let spec = CommandSpec(
        name: "sync", abstract: "Refresh every feed, delete what retention says, download what policy asks for.",
        discussion: """
            Policy comes from the configuration file ('podcli config list'). A feed or download that fails \
            does not stop the others: it is reported on stderr, recorded (see 'podcli feeds' and 'podcli list') \
            and makes the exit code non-zero. With --quiet nothing is printed unless something failed. Each run \
            appends a summary to sync.log in $XDG_STATE_HOME/podcli (or the --home directory). When it \
            downloaded episodes and a notification server is on the session bus, one desktop notification \
            lists them, with a Play action that starts the newest.
            """,
        options: [jobs, limitRate], flags: [wait])

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
        let report = try withExtendedLifetime(lock) { try synchronizer.run(library) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let summary = report.summary + " in \(Formatting.oneDecimal(seconds)) s"
        // A result, not a diagnostic: `podcli sync > report` keeps it (--quiet leaves it out).
        context.output.print("Synced " + summary)
        log.append(
            ["\(Formatting.time(Int(Date().timeIntervalSince1970))) sync: \(summary)"]
                + report.failures.map { "  failed: \($0.line)" } + report.warnings.map { "  warning: \($0)" })
        NewEpisodesNotice.post(report.newestFirst, environment: context.environment, helpers: Helpers(context: context))
        guard let first = report.failures.first else { return }
        let code = exitCode(for: first.cause)
        // One failure is told by its own line (a laptop with no network: one line in all).
        guard report.failures.count > 1 else { throw AlreadyTold(exitCode: code) }
        throw CommandFailure(
            description: "sync: " + Formatting.count(report.failures.count, "failure") + " (see above)",
            exitCode: code)
    }

    /// Every URL sync fetches came from the library, never from its command line: one it cannot
    /// fetch (an `ftp:` enclosure an older podcli recorded) is a feed's bad content, not usage.
    private static func exitCode(for cause: Error) -> ExitCode {
        if case DownloadError.invalidURL = cause { return .badContent }
        return ExitCode(for: cause)
    }
}
