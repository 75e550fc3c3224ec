import EpisodeStore
import PodcliKit

/// Work done item by item for a command (feeds refreshed or imported, episodes downloaded), each
/// failure told on a line of its own as it happens.
enum Reported {
    /// Runs `body` for each of `items` (feeds or URLs), telling a failure on one line of its own
    /// (led by `name`) and going on with the rest; a failure of the library itself stops at once.
    /// - Throws: a summary failure with the first failure's exit code, when any failed.
    static func forEach<Item>(
        _ items: [Item], noun: String = "feed", output: Output, name: (Item) -> String,
        _ body: (Item) throws -> Void
    ) throws {
        var failures: [Error] = []
        for item in items {
            do {
                try body(item)
            } catch let error as StoreError where error.isLibraryFailure {
                throw error
            } catch {
                output.error("\(name(item)): \(error)")
                failures.append(error)
            }
        }
        if let first = failures.first {
            throw CommandFailure(
                description: "\(Formatting.count(failures.count, noun)) of \(items.count) failed",
                exitCode: ExitCode(for: first))
        }
    }
}
