import Arguments
import EpisodeStore
import PodcliKit

/// `podcli queue`: the episodes to play next ("Up Next"), in order. A group: its subcommands do
/// the work.
enum Queue: Command {
    static let subcommands: [any Command.Type] = [
        QueueAdd.self, QueueRemove.self, QueueMove.self, QueueList.self, QueueClear.self,
    ]

    static let spec = CommandSpec(
        name: "queue", abstract: "Manage the queue: the episodes to play next, in order.",
        subcommands: subcommands.map { $0.spec }, group: .playback)

    /// Not reached: the parser refuses a group named without one of its subcommands.
    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        throw UsageError.missingCommand
    }

    /// The episodes `references` name, in order, each once; all are found before anything changes.
    /// - Throws: `StoreError.episodeNotFound` or `.ambiguousEpisode` for the first one that is not.
    static func episodes(_ references: [String], in library: Library) throws -> [Episode] {
        var seen = Set<Int>()
        return try references.map { try library.episode(matching: $0) }.filter { seen.insert($0.id).inserted }
    }
}
