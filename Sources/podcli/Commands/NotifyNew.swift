import Arguments
import FoundationEssentials
import PodcliKit

#if canImport(Glibc)
    import Glibc
#endif

/// `podcli notify-new --episodes JSON`: the desktop notification a sync posts, from the command
/// line. Hidden: podcli runs it itself (`NewEpisodesNotice.post` starts it with `--helper`, the
/// JSON on its stdin), and tests use it to post as a sync would.
enum NotifyNew: Command {
    static let episodes = Option(
        "episodes", valueName: "json",
        help: #"The episodes, newest first: [{"id":12,"title":"…","podcast":"…"}]; - reads them from stdin."#)
    static let helper = Flag(
        "helper", help: "Send the notification from this process and wait for its answer (what post starts).")

    static let spec = CommandSpec(
        name: "notify-new", abstract: "Tell the desktop about new episodes, as a sync does.",
        discussion: """
            Without --helper, starts a detached helper and returns at once, printing nothing. \
            With it, sends the notification (when a server is on the session bus) and, when it \
            offers "Play", waits up to 30 minutes for it, then plays the newest in the background.
            """,
        options: [episodes], flags: [helper], isHidden: true)

    /// The value of `--episodes` that means stdin (how `post` hands them over: a command line
    /// is every local user's to read).
    static let standardInput = "-"
    /// The most stdin may hold: far more than any sync's list.
    static let inputLimit = 16 << 20

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let list = try arguments.value(episodes, as: "a JSON array of episodes") { text in
            let json =
                text == standardInput ? Descriptor.readAll(from: STDIN_FILENO, upTo: inputLimit) : Array(text.utf8)
            return try? json.map { try JSONDecoder().decode([DownloadedEpisode].self, from: Data($0)) }
        }
        guard let list else { throw UsageError.conflicting("--episodes is required") }
        if arguments[helper] {
            try NewEpisodesNotice.deliver(
                list, controlSocket: try context.directories.get().controlSocket, helpers: Helpers(context: context))
        } else {
            NewEpisodesNotice.post(list, environment: context.environment, helpers: Helpers(context: context))
        }
    }
}
