import Arguments
import EpisodeStore
import PodcliKit

/// `podcli queue add [--next] ID...`: adds episodes to the queue, in the order given: at the end,
/// or ahead of the rest.
enum QueueAdd: Command {
    static let ids = Positional(
        "id", help: "The episodes' numbers or unique prefixes of their UUIDs, in the order to play them.",
        isRepeating: true, domain: .dynamic(.episode))
    static let next = Flag(
        "next", help: "Play them next: at the front of the queue, ahead of the rest (a queued one is moved there).")

    static let spec = CommandSpec(
        name: "add", abstract: "Add episodes to the end of the queue (a queued one keeps its place), or --next.",
        discussion: discussion,
        positionals: [ids], flags: [next],
        examples: [
            Example("podcli queue add --next 17 18", "Play episodes 17 and 18 next.")
        ])

    static let discussion = """
        The episodes go to the end in the order given, or to the front with --next (one already \
        queued moves there); they need not be downloaded: play streams them when their turn comes. \
        A player already running goes on with the queue it started with.

        Exit status: 66 when an ID names no episode (then nothing is queued).
        """

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let library = try context.library()
        let episodes = try Queue.episodes(arguments.values(ids), in: library)
        if arguments[next] {
            let added = try library.enqueueNext(episodes)
            for episode in episodes {
                let verb = added.contains(episode.id) ? "Queued" : "Moved"
                context.output.print("\(verb) #\(episode.id) \(episode.title) to play next")
            }
            return
        }
        for episode in episodes {
            if try library.enqueue([episode]) == 1 {
                context.output.print("Queued #\(episode.id) \(episode.title)")
            } else {
                context.output.print("#\(episode.id) is already queued")
            }
        }
    }
}
