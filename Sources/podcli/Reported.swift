import EpisodeStore
import PodcliKit

/// Work done item by item for a command (feeds refreshed or imported, episodes downloaded), each
/// failure told on a line of its own as it happens, but for an outage: the items whose host could
/// not be reached are told in one line at the end.
enum Reported {
    /// Runs `body` for each of `items` (feeds or URLs), telling a failure on one line of its own
    /// (led by `name`) and going on with the rest; a failure of the library itself stops at once.
    /// `undone` says what an item whose host could not be reached was left ("not refreshed").
    /// - Throws: a summary failure with the first failure's exit code, when any failed.
    static func forEach<Item>(
        _ items: [Item], noun: String = "feed", undone: String, output: Output, name: (Item) -> String,
        _ body: (Item) throws -> Void
    ) throws {
        var failures = Failures(noun: noun, undone: undone)
        for item in items {
            do {
                try body(item)
                failures.reachedAServer = true
            } catch let error as StoreError where error.isLibraryFailure {
                throw error
            } catch {
                failures.add(error, output: output) { "\(name(item)): \(error)" }
            }
        }
        try failures.conclude(of: items.count, output: output)
    }

    /// The failures of a command's items, as they come.
    struct Failures {
        let noun: String
        let undone: String
        private(set) var told: [any Error] = []
        private(set) var unreached = Unreached()
        /// Whether any item got as far as a server (else the network is down).
        var reachedAServer = false

        init(noun: String, undone: String) {
            self.noun = noun
            self.undone = undone
        }

        /// Tells `error` at once in `line`, unless it is its host's outage (told at the end).
        mutating func add(_ error: any Error, output: Output, line: () -> String) {
            guard !unreached.add(error, noun: noun, verb: undone) else { return }
            reachedAServer = true
            output.error(line())
            told.append(error)
        }

        /// The outage's one line (the command's only one when nothing else failed), then how
        /// many of `total` failed.
        /// - Throws: with the first failure's exit code, when any failed.
        func conclude(of total: Int, output: Output) throws {
            if let cause = unreached.cause {
                let line = unreached.line(nothingReached: !reachedAServer)
                guard !told.isEmpty else { throw CommandFailure(description: line, exitCode: ExitCode(for: cause)) }
                output.error(line)
            }
            guard let first = told.first else { return }
            throw CommandFailure(
                description: "\(Formatting.count(told.count + unreached.count, noun)) of \(total) failed",
                exitCode: ExitCode(for: first))
        }
    }
}
