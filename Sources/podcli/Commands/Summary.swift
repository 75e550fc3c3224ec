import EpisodeStore
import FoundationEssentials
import PodcliKit
import RemoteControl

/// `podcli` with no command: where things stand (what is playing, what is new) and where help is,
/// as `git status` or `mpc` answer a bare invocation, instead of a usage error.
enum Summary {
    static func run(in context: Context) throws {
        let output = context.output
        let directories = try context.directories.get()
        // A bare `podcli` looks, it does not make a library where there is none.
        if FileManager.default.fileExists(atPath: directories.data + "/podcli.db") {
            let feeds = try context.library().feeds()
            let new = feeds.reduce(0) { $0 + $1.new }
            let downloaded = feeds.reduce(0) { $0 + $1.downloaded }
            output.print(
                "\(Formatting.count(feeds.count, "feed")), \(Formatting.count(new, "new episode"))"
                    + (new > 0 ? " ('podcli list --new')" : "") + ", \(downloaded) downloaded", always: true)
        } else {
            output.print(
                "No library yet: 'podcli fetch URL' subscribes to a feed or downloads an episode.", always: true)
        }
        output.print(nowPlaying(socket: directories.controlSocket), always: true)
        output.print("'podcli --help' lists the commands; 'podcli help COMMAND' tells one.", always: true)
    }

    /// What the player says it plays, in a line.
    private static func nowPlaying(socket: String) -> String {
        guard case .playing(let report, _)? = try? PlayerAnswer.ask(at: socket) else { return "Nothing is playing." }
        return Status.headline(report)
    }
}
