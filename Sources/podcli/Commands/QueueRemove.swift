import Arguments
import EpisodeStore
import PodcliKit
import Strings

/// `podcli queue rm ID...`: takes episodes out of the queue; they stay in the library.
enum QueueRemove: Command {
    static let ids = Positional(
        "id", help: "The episodes' numbers or unique prefixes of their UUIDs.", isRepeating: true,
        domain: .dynamic(.episode))

    static let spec = CommandSpec(
        name: "rm", abstract: "Remove episodes from the queue (not from the library).",
        discussion: discussion, positionals: [ids])

    static let discussion = """
        Exit status: 66 when an episode is unknown or was not queued (named after the others are \
        removed).
        """

    /// - Throws: a `notFound` failure naming the episodes that were not queued, after the others
    ///   are removed.
    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        var notQueued: [String] = []
        for episode in try Queue.episodes(arguments.values(ids), in: library) {
            if try library.dequeue(episode) {
                context.output.print("Removed #\(episode.id) from the queue")
            } else {
                notQueued.append("#\(episode.id)")
            }
        }
        guard notQueued.isEmpty else {
            let verb = Counted.agreeing(with: notQueued.count, "is", "are")
            throw CommandFailure(
                description: "\(notQueued.joined(separator: ", ")) \(verb) not in the queue (see 'podcli queue ls')",
                exitCode: .notFound)
        }
    }
}
