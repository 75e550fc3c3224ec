import Arguments
import EpisodeStore
import PodcliKit

/// `podcli queue add ID...`: appends episodes to the queue, in the order given.
enum QueueAdd: Command {
    static let ids = Positional(
        "id", help: "The episodes' numbers or unique prefixes of their UUIDs, in the order to play them.",
        isRepeating: true)

    static let spec = CommandSpec(
        name: "add", abstract: "Add episodes to the end of the queue; a queued one keeps its place.",
        positionals: [ids])

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        for episode in try Queue.episodes(arguments.values(ids), in: library) {
            if try library.enqueue([episode]) == 1 {
                context.output.print("Queued #\(episode.id) \(episode.title)")
            } else {
                context.output.print("#\(episode.id) is already queued")
            }
        }
    }
}
