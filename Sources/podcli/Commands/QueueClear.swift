import Arguments
import PodcliKit

/// `podcli queue clear`: empties the queue; the episodes stay in the library.
enum QueueClear: Command {
    static let spec = CommandSpec(name: "clear", abstract: "Empty the queue (the episodes stay in the library).")

    static func run(_ arguments: ParsedArguments, in context: Context) throws {
        let count = try context.library().clearQueue()
        context.output.print("Cleared the queue (\(Formatting.count(count, "episode")))")
    }
}
