import Foundation
import Testing

@testable import EpisodeStore

/// Many feeds written in a few transactions (`podcli import`): each write kept or undone on its
/// own, told only once committed, and another writer still getting in.
@Suite struct WriteBatchTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    private func items(_ feed: Int, count: Int) -> [EpisodeMetadata] {
        (1...count).map { number in
            var item = EpisodeMetadata(
                title: "Feed \(feed) episode \(number)", sourceURL: "https://cdn.example.com/\(feed)/\(number).mp3",
                mediaKey: "cdn.example.com/\(feed)/\(number).mp3")
            item.publishedAt = 1_700_000_000 + number * 86_400 + feed
            return item
        }
    }

    @discardableResult
    private func subscribe(_ library: Library, _ feed: Int, episodes: Int = 3) throws -> Feed {
        try library.subscribe(
            url: "https://example.com/\(feed).xml", metadata: FeedMetadata(title: "Show \(feed)"),
            episodes: items(feed, count: episodes), etag: nil, lastModified: nil, protection: .private
        ).0
    }

    /// What another connection sees: committed rows only.
    private func feedsSeenFromOutside() throws -> Int {
        let other = try Database(path: directory.path + "/data/podcli.db")
        return Int(try other.rows("SELECT count(*) FROM feeds")[0].int(0) ?? -1)
    }

    @Test func writesAreToldOnceCommittedAndAFailedOneUndoesOnlyItself() throws {
        let library = try makeLibrary()
        var limits = WriteBatch.Limits()
        limits.duration = .seconds(60)
        var told: [Int] = []
        try WriteBatch.run(library, limits: limits) { batch in
            try batch.write({ try subscribe(library, 1) }, committed: { told.append($0.id) })
            // A feed whose second write fails: its own transaction is undone, the first kept.
            #expect(throws: StoreError.self) {
                try batch.write {
                    try subscribe(library, 2)
                    try library.database.inTransaction { () throws(StoreError) in
                        try library.database.run(
                            "INSERT INTO feeds (id, url, title, subscribed_at) VALUES (1, 'x', 'x', 0)")
                        return .commit
                    }
                }
            }
            try batch.write({ try subscribe(library, 3) }, committed: { told.append($0.id) })
            #expect(told.isEmpty, "told before the commit")
            #expect(try feedsSeenFromOutside() == 0)
            try batch.commit()
            #expect(told.count == 2)
            #expect(try feedsSeenFromOutside() == 3)
        }
        #expect(try library.subscriptions().map(\.url).sorted() == (1...3).map { "https://example.com/\($0).xml" })
        #expect(try library.count(EpisodeFilter()) == 9)
        #expect(try library.feeds().map(\.episodes) == [3, 3, 3])
    }

    @Test func aTransactionDecidedToRollBackInsideABatchUndoesOnlyItsOwnWrites() throws {
        let library = try makeLibrary()
        try WriteBatch.run(library) { batch in
            try batch.write { try subscribe(library, 1) }
            try batch.write {
                try library.database.inTransaction { () throws(StoreError) in
                    try library.database.run("UPDATE feeds SET title = 'changed'")
                    return .rollback
                }
            }
        }
        #expect(try library.subscriptions().map(\.title) == ["Show 1"])
        #expect(!library.database.isInTransaction)
    }

    @Test func whatWasWrittenBeforeAFailureIsKeptAndTheSettingsGoBack() throws {
        let library = try makeLibrary()
        let cacheBefore = try library.database.rows("PRAGMA cache_size")[0].int(0)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try WriteBatch.run(library) { batch in
                try batch.write { try subscribe(library, 1) }
                throw Stop()
            }
        }
        #expect(try feedsSeenFromOutside() == 1)
        #expect(try library.database.rows("PRAGMA cache_size")[0].int(0) == cacheBefore)
    }

    /// A player saving its position on its own connection waits at most about one batch's
    /// `duration` while an import writes without a pause of its own.
    @Test func anotherWriterIsNotStarvedByABatch() throws {
        let library = try makeLibrary()
        try subscribe(library, 0, episodes: 1)
        let episode = try #require(try library.episodes().first)
        var limits = WriteBatch.Limits()
        limits.duration = .milliseconds(200)
        let path = directory.path + "/data"
        let finished = Finished()
        let player = Thread { [episode] in
            defer { finished.signal() }
            guard let other = try? Library(directory: path) else { return }
            for position in 1...5 {
                let started = Date()
                let saved =
                    (try? other.setPlaybackState(
                        PlaybackState(positionMilliseconds: position * 1000, played: false), of: episode)) != nil
                finished.record(saved: saved, waited: Date().timeIntervalSince(started))
                usleep(100_000)
            }
        }
        player.start()
        try WriteBatch.run(library, limits: limits) { batch in
            var feed = 1
            while !finished.isDone {
                _ = try batch.write { try subscribe(library, feed, episodes: 20) }
                feed += 1
            }
        }
        let saves = finished.saves
        let unsaved = saves.filter { !$0.saved }.count
        let longestWait = saves.map(\.waited).max() ?? 99
        #expect(unsaved == 0, "\(saves)")
        #expect(saves.count == 5)
        // The batch's 200 ms, and the busy handler's 2 ms polls, on a busy machine.
        #expect(longestWait < 2.0, "\(saves)")
        #expect(try library.playbackState(of: episode).positionMilliseconds == 5000)
    }

    /// The player thread's record, read by the test's.
    final class Finished: @unchecked Sendable {
        // @unchecked: every field is touched only with `lock` held.
        private let lock = NSLock()
        private var done = false
        private var record: [(saved: Bool, waited: TimeInterval)] = []

        func record(saved: Bool, waited: TimeInterval) { lock.withLock { record.append((saved, waited)) } }
        func signal() { lock.withLock { done = true } }
        var isDone: Bool { lock.withLock { done } }
        var saves: [(saved: Bool, waited: TimeInterval)] { lock.withLock { record } }
    }
}
