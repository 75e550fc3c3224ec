import Arguments
import Testing

/// A small podcli-like command tree shared by the tests.
enum PodcliSpec {
    static let home = Option(
        "home", valueName: "dir", help: "Keep everything podcli writes in <dir>.")
    static let quiet = Flag("quiet", short: "q", help: "Print nothing but errors.")

    static let url = Positional("url", help: "The audio or feed URL (http or https).")
    static let protection = Option(
        "protection", valueName: "class", help: "Protection class: private (owner only) or open.",
        defaultValue: "private", domain: .choices(["private", "open"]))
    static let json = Flag("json", help: "Print the result as JSON.")
    static let limit = Option(
        "limit", short: "n", valueName: "count", help: "Show at most <count> episodes.")
    static let id = Positional("id", help: "The episode ids.", isRepeating: true, domain: .dynamic(.episode))
    static let seconds = Positional("seconds", help: "Seconds to move by; negative moves back.")

    static let fetch = CommandSpec(
        name: "fetch", abstract: "Download an episode or subscribe to a feed.",
        positionals: [url], options: [protection], flags: [json])
    static let list = CommandSpec(
        name: "list", abstract: "List episodes.", options: [limit], flags: [json])
    static let queue = CommandSpec(
        name: "queue", abstract: "Manage the play queue.",
        subcommands: [
            CommandSpec(name: "add", abstract: "Add episodes to the queue.", positionals: [id]),
            CommandSpec(name: "rm", abstract: "Remove episodes from the queue.", positionals: [id]),
        ])
    static let seek = CommandSpec(
        name: "seek", abstract: "Move the playback position.", positionals: [seconds])
    /// Hidden: parsed, but neither listed in help nor suggested.
    static let notify = CommandSpec(
        name: "notify-new", abstract: "Tell the desktop.", flags: [json], isHidden: true)

    static let parser = ArgumentParser(
        root: CommandSpec(
            name: "podcli", abstract: "A command-line podcast manager.",
            subcommands: [fetch, list, queue, seek, notify]),
        globalOptions: [home], globalFlags: [quiet], version: "0.1.0")

    /// The invocation `arguments` parse to; records an issue for help, version or a failure.
    static func invocation(
        _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) -> Invocation? {
        outcome(arguments, sourceLocation: sourceLocation).flatMap {
            if case .run(let invocation) = $0 { return invocation }
            Issue.record("expected a command to run, got \($0)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The help text `arguments` parse to; records an issue for anything else.
    static func help(
        _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) -> String? {
        outcome(arguments, sourceLocation: sourceLocation).flatMap {
            if case .help(let text) = $0 { return text }
            Issue.record("expected help, got \($0)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The failure `arguments` parse to; records an issue if parsing succeeds.
    static func failure(
        _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) -> UsageFailure? {
        do {
            let outcome = try parser.parse(arguments)
            Issue.record("expected a usage failure, got \(outcome)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    private static func outcome(
        _ arguments: [String], sourceLocation: SourceLocation
    ) -> ParseOutcome? {
        do {
            return try parser.parse(arguments)
        } catch {
            Issue.record("unexpected failure:\n\(error.message)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
