import Foundation
import Testing

@testable import EpisodeStore

/// The queue ("Up Next"): order, re-adding, removal, and that it never outlives its episodes.
@Suite struct LibraryQueueTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    private func makeEpisodes(_ count: Int, in library: Library) throws -> [Episode] {
        try (1...count).map { n in
            try library.createEpisode(title: "Episode \(n)", sourceURL: "http://x/\(n).mp3", protection: .private)
        }
    }

    private func queueRows(_ library: Library) throws -> Int {
        Int(try library.database.rows("SELECT count(*) FROM queue")[0].int(0) ?? -1)
    }

    @Test func episodesPlayInTheOrderTheyWereQueued() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(4, in: library)
        #expect(try library.queue().isEmpty)
        #expect(try library.enqueue([episodes[2], episodes[0]]) == 2)
        #expect(try library.enqueue([episodes[3]]) == 1)
        #expect(try library.queue().map(\.title) == ["Episode 3", "Episode 1", "Episode 4"])
    }

    @Test func aQueuedEpisodeAddedAgainKeepsItsPlace() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(3, in: library)
        try library.enqueue([episodes[0], episodes[1]])
        #expect(try library.enqueue([episodes[2], episodes[0], episodes[2]]) == 1)
        #expect(try library.queue().map(\.title) == ["Episode 1", "Episode 2", "Episode 3"])
    }

    @Test func dequeuingRemovesOneEpisodeAndSaysWhetherItWasQueued() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(3, in: library)
        try library.enqueue(episodes)
        #expect(try library.dequeue(episodes[1]))
        #expect(try !library.dequeue(episodes[1]))
        #expect(try library.queue().map(\.title) == ["Episode 1", "Episode 3"])
        // Queued again, it goes to the end.
        try library.enqueue([episodes[1]])
        #expect(try library.queue().map(\.title) == ["Episode 1", "Episode 3", "Episode 2"])
        #expect(try library.episodes().count == 3, "dequeuing removes nothing from the library")
    }

    @Test func clearingEmptiesTheQueueAndKeepsTheEpisodes() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(3, in: library)
        try library.enqueue(episodes)
        #expect(try library.clearQueue() == 3)
        #expect(try library.queue().isEmpty)
        #expect(try library.clearQueue() == 0)
        #expect(try library.episodes().count == 3)
        // Appending starts again after a clear.
        try library.enqueue([episodes[2], episodes[1]])
        #expect(try library.queue().map(\.title) == ["Episode 3", "Episode 2"])
    }

    @Test func removingAnEpisodeTakesItOutOfTheQueue() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(3, in: library)
        try library.enqueue(episodes)
        try library.prepareDirectory(for: episodes[1])
        try library.remove(episodes[1])
        #expect(try library.queue().map(\.title) == ["Episode 1", "Episode 3"])
        #expect(try queueRows(library) == 2, "no row left for the removed episode")
        #expect(throws: StoreError.episodeNotFound("\(episodes[1].id)")) { try library.enqueue([episodes[1]]) }
        #expect(try queueRows(library) == 2)
    }

    @Test func unsubscribingDequeuesTheForgottenEpisodesAndKeepsTheKeptOnes() throws {
        let library = try makeLibrary()
        let items = (1...3).map { n in
            var item = EpisodeMetadata(
                title: "Episode \(n)", sourceURL: "https://cdn.example.com/\(n).mp3",
                mediaKey: "cdn.example.com/\(n).mp3")
            item.guid = "g\(n)"
            item.publishedAt = 1_700_000_000 + n * 86_400
            return item
        }
        let (feed, _) = try library.subscribe(
            url: "https://example.com/feed.xml", metadata: FeedMetadata(title: "Show"), episodes: items, etag: nil,
            lastModified: nil, protection: .private)
        let episodes = try library.episodes()
        try library.enqueue(episodes)
        // An episode with files is kept by an unsubscribe, as an episode of its own.
        let kept = try #require(episodes.first { $0.title == "Episode 2" })
        try library.prepareDirectory(for: kept)
        #expect(try library.unsubscribe(feed, deleteFiles: false) == 1)
        #expect(try library.queue().map(\.title) == ["Episode 2"])
        #expect(try queueRows(library) == 1)
    }

    @Test func theQueueSurvivesReopeningTheLibrary() throws {
        let episodes: [Episode]
        do {
            let library = try makeLibrary()
            episodes = try makeEpisodes(3, in: library)
            try library.enqueue([episodes[1], episodes[2], episodes[0]])
            try library.dequeue(episodes[2])
        }
        let reopened = try makeLibrary()
        #expect(try reopened.queue().map(\.id) == [episodes[1].id, episodes[0].id])
        try reopened.enqueue([episodes[2]])
        #expect(try reopened.queue().map(\.title) == ["Episode 2", "Episode 1", "Episode 3"])
    }

    @Test func theListingOfTheQueueIsInPlayOrderWithWhatAListingShows() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(2, in: library)
        try library.enqueue([episodes[1], episodes[0]])
        try library.setPlaybackState(PlaybackState(positionMilliseconds: 5_000, played: true), of: episodes[0])
        let listing = try library.queueListing()
        #expect(listing.map(\.id) == [episodes[1].id, episodes[0].id])
        #expect(listing.map(\.played) == [false, true])
        #expect(listing.map(\.positionMilliseconds) == [0, 5_000])
        #expect(listing.allSatisfy { $0.feedTitle == nil && $0.fileSize == nil })
    }

    /// The queue's ordinals in play order: schema 10 keeps them its positions, 1 to the count.
    private func ordinals(_ library: Library) throws -> [Int] {
        try library.database.rows("SELECT ordinal FROM queue ORDER BY ordinal, episode_id").map { Int($0.int(0)!) }
    }

    @Test func episodesQueuedNextGoAheadOfTheRestInTheOrderGiven() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(5, in: library)
        try library.enqueue([episodes[0], episodes[1], episodes[2]])
        // A new one and a queued one: both go to the front, in the order given; the queued one moves.
        #expect(try library.enqueueNext([episodes[3], episodes[2]]) == [episodes[3].id])
        #expect(try library.queue().map(\.title) == ["Episode 4", "Episode 3", "Episode 1", "Episode 2"])
        #expect(try ordinals(library) == [1, 2, 3, 4])
        // Appending still goes to the end.
        try library.enqueue([episodes[4]])
        #expect(try library.queue().map(\.title).last == "Episode 5")
        #expect(try ordinals(library) == [1, 2, 3, 4, 5])
    }

    @Test func queuingNextAnEpisodeRemovedMeanwhileChangesNothing() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(3, in: library)
        try library.enqueue([episodes[0]])
        try library.prepareDirectory(for: episodes[2])
        try library.remove(episodes[2])
        #expect(throws: StoreError.episodeNotFound("\(episodes[2].id)")) {
            try library.enqueueNext([episodes[1], episodes[2]])
        }
        #expect(try library.queue().map(\.title) == ["Episode 1"])
        #expect(try ordinals(library) == [1])
    }

    @Test func movingAnEpisodeShiftsTheOnesBetweenAndKeepsTheOrderDense() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(5, in: library)
        try library.enqueue(episodes)
        #expect(try library.moveInQueue(episodes[0], to: 4) == .moved(from: 1, to: 4))
        #expect(try library.queue().map(\.title) == ["Episode 2", "Episode 3", "Episode 4", "Episode 1", "Episode 5"])
        #expect(try library.moveInQueue(episodes[4], to: 1) == .moved(from: 5, to: 1))
        #expect(try library.queue().map(\.title) == ["Episode 5", "Episode 2", "Episode 3", "Episode 4", "Episode 1"])
        #expect(try library.moveInQueue(episodes[2], to: 3) == .moved(from: 3, to: 3))
        #expect(try ordinals(library) == [1, 2, 3, 4, 5])

        #expect(try library.moveInQueue(episodes[1], to: 6) == .outOfRange(count: 5))
        #expect(try library.moveInQueue(episodes[1], to: 0) == .outOfRange(count: 5))
        try library.dequeue(episodes[3])
        #expect(try library.moveInQueue(episodes[3], to: 1) == .notQueued)
        #expect(try library.queue().map(\.title) == ["Episode 5", "Episode 2", "Episode 3", "Episode 1"])
    }

    @Test func takingEpisodesOutMovesTheOnesAfterThemUp() throws {
        let library = try makeLibrary()
        let episodes = try makeEpisodes(5, in: library)
        try library.enqueue(episodes)
        try library.dequeue(episodes[1])
        #expect(try ordinals(library) == [1, 2, 3, 4])
        // Removed from the library, through ON DELETE CASCADE.
        try library.prepareDirectory(for: episodes[2])
        try library.remove(episodes[2])
        #expect(try ordinals(library) == [1, 2, 3])
        #expect(try library.moveInQueue(episodes[4], to: 1) == .moved(from: 3, to: 1))
        #expect(try library.queue().map(\.title) == ["Episode 5", "Episode 1", "Episode 4"])
        try library.clearQueue()
        try library.enqueue([episodes[0]])
        #expect(try ordinals(library) == [1])
    }

    @Test func aQueueWithGapsFromBeforeIsNumberedInItsOrderByTheUpgrade() throws {
        let starred = Migrator().migrations.first { $0.sql.contains("ADD COLUMN starred") }!.version
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        do {
            let database = try Database(path: directory.path + "/data/podcli.db")
            try Migrator().migrate(database, upTo: starred - 1)
            for n in 1...3 {
                try database.execute(
                    """
                    INSERT INTO episodes (id, uuid, title, source_url, created_at)
                    VALUES (\(n), '0190a000-0000-7000-8000-00000000000\(n)', 'Old \(n)', 'http://x/\(n).mp3', 1700000000)
                    """)
            }
            // Schema 3 left gaps where episodes were taken out.
            try database.execute(
                "INSERT INTO queue (episode_id, ordinal, added_at) VALUES (3, 2, 0), (1, 7, 0), (2, 9, 0)")
        }
        let library = try makeLibrary()
        #expect(try library.queue().map(\.title) == ["Old 3", "Old 1", "Old 2"])
        #expect(try ordinals(library) == [1, 2, 3])
        #expect(try library.episodes().allSatisfy { !$0.isStarred })
    }

    @Test func aLibraryFromSchema2UpgradesWithItsEpisodesAndAnEmptyQueue() throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        do {
            let database = try Database(path: directory.path + "/data/podcli.db")
            try Migrator().migrate(database, upTo: 2)
            try database.execute(
                """
                INSERT INTO episodes (uuid, title, source_url, created_at)
                VALUES ('0190a000-0000-7000-8000-000000000001', 'Old', 'http://x/old.mp3', 1700000000)
                """)
        }
        let library = try makeLibrary()
        #expect(try Migrator().version(of: library.database) == Migrator().latestVersion)
        #expect(try library.queue().isEmpty)
        let old = try #require(try library.episodes().first)
        #expect(try library.enqueue([old]) == 1)
        #expect(try library.queue() == [old])
    }
}
