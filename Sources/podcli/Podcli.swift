import Arguments
import PodcliKit

#if canImport(Glibc)
    import Glibc
#endif

/// The root command: parses the command line, runs the subcommand, and is the one place that
/// turns errors into a line on stderr and an exit code.
enum Podcli {
    static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        Fetch.self, Search.self, Download.self, Refresh.self, Sync.self, RemoteCommand.self, Feeds.self, List.self,
        Play.self, Queue.self, Status.self, Attach.self,
        PauseButton.self,
        ResumeButton.self, ToggleButton.self, StopButton.self, NextButton.self, PreviousButton.self,
        NextChapterButton.self, PreviousChapterButton.self, Seek.self, SeekTo.self, Volume.self, Speed.self, Sleep.self,
        BookmarkButton.self, Bookmarks.self, Show.self, Stats.self, ChaptersCommand.self, TranscriptCommand.self,
        Keep.self, Unkeep.self, Remove.self,
        Verify.self, Configure.self,
        Unsubscribe.self, Import.self, Export.self, Inspect.self,
        Mark.self, Star.self, Unstar.self, Man.self, Completions.self,
        // Hidden: run by podcli itself.
        NotifyNew.self, RenderArtwork.self, CompleteCommand.self,
    ]

    static let spec = CommandSpec(
        name: "podcli",
        abstract: "An offline podcast manager: download episodes, keep them safe, play them.",
        discussion: discussion,
        subcommands: commands.map { $0.spec })

    static let discussion = """
        'podcli' alone says where things stand: feeds, new episodes, what is playing. Data lives \
        in $XDG_DATA_HOME/podcli (or --home DIR / PODCLI_HOME).

        Naming things, in every command:
        - An ID is an episode's number (see 'podcli list') or a unique prefix of its UUID.
        - A FEED is a feed's number (see 'podcli feeds'), its URL, or a part of its title only \
        one feed's title contains, ignoring case ('podcli list daily'); a title that is exactly \
        what was typed wins over titles that merely contain it.

        Results go to stdout (also 'sync' and 'refresh' summaries), progress and diagnostics to \
        stderr: 'podcli sync > report' keeps the results. Every error is one line beginning \
        'podcli: '. What a feed or server says is shown with its control characters (CR, LF, \
        ESC, C1, bidirectional overrides) as spaces, and --json writes them as \\u escapes; a \
        password in a URL is shown as user:***@. Titles and authors are stored up to 4 KiB; a \
        table column is at most 40 characters wide (the last, 200), cut with '…'.
        """

    static let parser = ArgumentParser(
        root: spec, globalOptions: GlobalOptions.options, globalFlags: GlobalOptions.flags, version: version,
        rootRunsBare: true)

    /// Runs podcli with `arguments` (without argv[0]) and returns the exit code.
    static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
        let invocation: Invocation
        do {
            switch try parser.parse(arguments) {
            case .help(let text):
                Output.write(text + "\n", to: STDOUT_FILENO)
                return ExitCode.success.rawValue
            case .version(let text):
                Output.write(text + "\n", to: STDOUT_FILENO)
                return ExitCode.success.rawValue
            case .run(let parsed):
                invocation = parsed
            }
        } catch {
            Output.write(error.message + "\n", to: STDERR_FILENO)
            return UsageFailure.exitCode
        }
        let context = Context(arguments: invocation.arguments, environment: environment)
        if invocation.commandPath.count == 1 {
            return run(in: context) { try Summary.run(in: context) }
        }
        guard let command = Self.command(at: invocation.commandPath.dropFirst()) else {
            Output.write(parser.usageFailure(.missingCommand, for: invocation).message + "\n", to: STDERR_FILENO)
            return UsageFailure.exitCode
        }
        return run(in: context, invocation: invocation) { try command.run(invocation.arguments, in: context) }
    }

    /// Runs `body`, turning what it throws into one line on stderr and the exit code.
    private static func run(in context: Context, invocation: Invocation? = nil, _ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return ExitCode.success.rawValue
        } catch let stop as TerminatedBySignal {
            return 128 + stop.number
        } catch let told as AlreadyTold {
            return told.exitCode.rawValue
        } catch let error as UsageError {
            let message = invocation.map { parser.usageFailure(error, for: $0).message } ?? "podcli: \(error)"
            Output.write(message + "\n", to: STDERR_FILENO)
            return UsageFailure.exitCode
        } catch {
            context.output.error("\(error)")
            return ExitCode(for: error).rawValue
        }
    }

    /// The command `path` names below the root (`["queue", "add"]`), through any groups.
    static func command(at path: ArraySlice<String>) -> (any Command.Type)? {
        var command: (any Command.Type)?
        var choices = commands
        for name in path {
            guard let next = choices.first(where: { $0.spec.name == name }) else { return nil }
            command = next
            choices = next.subcommands
        }
        return command
    }
}
