import Arguments
import EpisodeStore
import PodcliKit

/// `podcli rm ID`: deletes an episode's files and records together.
enum Remove: Command {
    static let id = Positional(
        "id", help: "The episode's number or a unique prefix of its UUID.", domain: .dynamic(.episode))

    static let spec = CommandSpec(
        name: "rm", abstract: "Remove an episode: its files and its records, never one without the other.",
        discussion: discussion,
        positionals: [id], group: .library)

    static let discussion = """
        The directory is moved aside in the transaction that deletes the records, then deleted; an \
        interrupted removal is finished by the next podcli. An episode its feed still lists keeps \
        its record, marked deleted, so the feed does not bring it back as new and 'podcli sync' does \
        not download it again ('podcli fetch' of its URL does).

        Exit status: 66 when no episode has that ID, 75 when the episode is being played.
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let episode = try library.episode(matching: arguments[id]!)
        let lock = try library.lock(episode)  // not while a download writes into it
        try withExtendedLifetime(lock) {
            if episode.feedID != nil && episode.inFeed {
                try library.removeFiles(of: episode)
            } else {
                try library.remove(episode)
            }
        }
        context.output.print("Removed #\(episode.id) \(episode.title)")
    }
}
