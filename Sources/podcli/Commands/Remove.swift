import Arguments
import EpisodeStore

/// `podcli rm ID`: deletes an episode's files and records together.
enum Remove: Command {
    static let id = Positional("id", help: "The episode's number or a unique prefix of its UUID.")

    static let spec = CommandSpec(
        name: "rm", abstract: "Remove an episode: its files and its records, never one without the other.",
        positionals: [id])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let episode = try library.episode(matching: arguments[id]!)
        let lock = try library.lock(episode)  // not while a download writes into it
        try withExtendedLifetime(lock) { try library.remove(episode) }
        context.output.print("Removed #\(episode.id) \(episode.title)")
    }
}
