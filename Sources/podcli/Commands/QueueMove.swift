import Arguments
import EpisodeStore
import PodcliKit

/// `podcli queue move ID POSITION`: puts a queued episode at another place in the queue.
enum QueueMove: Command {
    static let id = Positional(
        "id", help: "The queued episode's number or a unique prefix of its UUID.", domain: .dynamic(.episode))
    static let position = Positional(
        "position", help: "Where it goes: 1 plays first ('podcli queue ls' shows each one's place in the # column).")

    static let spec = CommandSpec(
        name: "move", abstract: "Move a queued episode to another place in the queue; the others make room.",
        discussion: discussion, positionals: [id, position])

    static let discussion = """
        Position 1 plays first ('queue ls' shows each one's place); the others move by one.

        Exit status: 64 when the position is past the end of the queue, 66 when the episode is \
        unknown or not queued.
        """

    /// - Throws: `UsageError` for a position that is not a number; a `notFound` failure for an
    ///   episode not queued, a `usage` one for a position past the queue's end.
    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let text = arguments[position]!
        guard let wanted = Int(text), wanted >= 1 else {
            throw UsageError.invalidValue(option: "<position>", value: text, expected: "a position, 1 or more")
        }
        let library = try context.library()
        let episode = try library.episode(matching: arguments[id]!)
        switch try library.moveInQueue(episode, to: wanted) {
        case .moved(let from, let to):
            context.output.print(
                from == to
                    ? "#\(episode.id) is already at \(to) in the queue"
                    : "Moved #\(episode.id) \(episode.title) from \(from) to \(to) in the queue")
        case .notQueued:
            throw CommandFailure(
                description: "#\(episode.id) is not in the queue (see 'podcli queue ls')", exitCode: .notFound)
        case .outOfRange(let count):
            throw CommandFailure(
                description:
                    "no position \(wanted) in a queue of \(Formatting.count(count, "episode")): give 1 to \(count)",
                exitCode: .usage)
        }
    }
}
