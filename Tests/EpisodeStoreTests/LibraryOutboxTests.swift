import Digest
import Foundation
import Testing

@testable import EpisodeStore

/// The outbox (schema 14): each change a sync server must learn is written with the change, in
/// its transaction, named as the server names it, and outlives the rows it was about.
@Suite struct LibraryOutboxTests {
    let directory = TestDirectory()
    let clock = TestClock(1_700_000_000)
    let feedURL = "https://example.com/feed.xml"

    private func makeLibrary() throws -> Library {
        try Library(directory: directory.path + "/data", clock: clock.reading)
    }

    /// A feed of `count` episodes, each with a guid and a length of 600 s.
    private func subscribe(_ library: Library, episodes count: Int = 2) throws -> (Feed, [Episode]) {
        let items = (1...count).map { number in
            var item = EpisodeMetadata(
                title: "E\(number)", sourceURL: "https://cdn.example.com/\(number).mp3",
                mediaKey: "cdn.example.com/\(number).mp3")
            item.guid = "guid-\(number)"
            item.publishedAt = 1_600_000_000 + number
            item.durationMilliseconds = 600_000
            return item
        }
        let feed = try library.subscribe(
            url: feedURL, metadata: FeedMetadata(title: "F"), episodes: items, etag: nil, lastModified: nil,
            protection: .private
        ).0
        return (feed, try library.episodes().filter { $0.feedID == feed.id }.sorted { $0.title < $1.title })
    }

    private func download(_ episode: Episode, in library: Library) throws {
        try library.prepareDirectory(for: episode)
        let path = library.directory(of: episode) + "/e.mp3.part"
        try Data("abc".utf8).write(to: URL(fileURLWithPath: path))
        _ = try library.recordDownload(
            of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: 3,
            sha256: SHA256.ofFile(atPath: path)!, contentType: nil)
    }

    /// The outbox as lines `action episode-URL-or-podcast-URL at [started position total]`.
    private func outbox(_ library: Library) throws -> [String] {
        try library.outbox().map { entry in
            var line = "\(entry.action.rawValue) \(entry.episodeURL ?? entry.podcastURL) \(entry.timestamp)"
            if let play = entry.play {
                let figures = [play.started, play.position, play.total].map { $0.map(String.init) ?? "-" }
                line += " " + figures.joined(separator: " ")
            }
            return line
        }
    }

    private func injectFailure(_ library: Library, on table: String) throws {
        try library.database.execute(
            "CREATE TEMP TRIGGER fail BEFORE INSERT ON \(table) BEGIN SELECT RAISE(ABORT, 'injected'); END")
    }

    @Test func subscribingAndUnsubscribingWriteTheirEntryAndCancelAPendingOne() throws {
        let library = try makeLibrary()
        let (feed, _) = try subscribe(library)
        #expect(try outbox(library) == ["subscribe \(feedURL) 1700000000"])
        let entry = try library.outbox()[0]
        #expect(entry.podcastURL == feedURL && entry.episodeURL == nil && entry.guid == nil && entry.play == nil)
        // Never sent: the server never knew of it, and learns nothing.
        clock.now += 10
        try library.unsubscribe(feed, deleteFiles: false)
        #expect(try outbox(library).isEmpty)
        // Sent, then ended: the server learns the end.
        let (again, _) = try subscribe(library)
        try library.markSent(try library.outbox())
        clock.now += 10
        try library.unsubscribe(again, deleteFiles: false)
        #expect(try outbox(library) == ["unsubscribe \(feedURL) 1700000020"])
    }

    /// A download, a play at a pause, a deletion, each keyed by the podcast's URL, the enclosure
    /// URL and the guid, at the clock's time; the periodic saves write nothing.
    @Test func eachEpisodeChangeWritesItsEntryWithTheServersNames() throws {
        let library = try makeLibrary()
        let (_, episodes) = try subscribe(library)
        try library.markSent(try library.outbox())
        let episode = episodes[0]
        clock.now += 1
        try download(episode, in: library)
        let saved = PlaybackState(positionMilliseconds: 30_500, played: false)
        try library.savePlayback(saved, of: episode, listened: ListeningTime(media: 500, wall: 500))
        #expect(try outbox(library) == ["download https://cdn.example.com/1.mp3 1700000001"])
        clock.now += 1
        try library.savePlayback(
            saved, of: episode, listened: ListeningTime(), play: PlaySpan(started: 0, position: 30, total: 600))
        clock.now += 1
        try library.removeFiles(of: episode)
        #expect(
            try outbox(library) == [
                "play https://cdn.example.com/1.mp3 1700000002 0 30 600",
                "delete https://cdn.example.com/1.mp3 1700000003",
            ])
        #expect(try library.outbox().map(\.guid) == ["guid-1", "guid-1"])
        #expect(try library.outbox().map(\.podcastURL) == [feedURL, feedURL])
    }

    /// Per episode the newest play replaces a pending one, and a download or delete a pending
    /// download or delete; marked played is a play to the end (the feed's length) or the
    /// session's own. Another episode's entries stay, in the order they were made.
    @Test func entriesAreCoalescedPerEpisodeAndKeptInOrder() throws {
        let library = try makeLibrary()
        let (_, episodes) = try subscribe(library)
        try library.markSent(try library.outbox())
        let (first, second) = (episodes[0], episodes[1])
        for (position, episode) in [(10, first), (20, second), (40, first)] {
            clock.now += 1
            try library.savePlayback(
                PlaybackState(positionMilliseconds: position * 1000, played: false), of: episode,
                listened: ListeningTime(), play: PlaySpan(started: 0, position: position, total: 600))
        }
        #expect(
            try outbox(library) == [
                "play https://cdn.example.com/2.mp3 1700000002 0 20 600",
                "play https://cdn.example.com/1.mp3 1700000003 0 40 600",
            ])
        clock.now += 1
        try library.markPlayed(second)
        clock.now += 1
        try library.markPlayed(first, play: PlaySpan(started: 40, position: 600, total: 600))
        try download(first, in: library)
        clock.now += 1
        try library.removeFiles(of: first)
        #expect(
            try outbox(library) == [
                "play https://cdn.example.com/2.mp3 1700000004 600 600 600",
                "play https://cdn.example.com/1.mp3 1700000005 40 600 600",
                "delete https://cdn.example.com/1.mp3 1700000006",
            ])
        // Read in pages, oldest first; sent entries go, a newer one made meanwhile stays.
        let page = try library.outbox(limit: 2)
        clock.now += 1
        try library.markPlayed(second)
        try library.markSent(page)
        #expect(
            try outbox(library) == [
                "delete https://cdn.example.com/1.mp3 1700000006",
                "play https://cdn.example.com/2.mp3 1700000007 600 600 600",
            ])
    }

    /// The entries name no row: an episode deleted, or its whole feed, still has them to send.
    @Test func aDeletedEpisodeOrFeedKeepsItsEntries() throws {
        let library = try makeLibrary()
        let (feed, episodes) = try subscribe(library)
        try library.markSent(try library.outbox())
        try download(episodes[0], in: library)
        try library.savePlayback(
            .start, of: episodes[1], listened: ListeningTime(), play: PlaySpan(started: 0, position: 5, total: 600))
        try library.remove(episodes[0])
        try library.unsubscribe(feed, deleteFiles: true)
        #expect(try library.episodes().isEmpty)
        #expect(
            try outbox(library) == [
                "play https://cdn.example.com/2.mp3 1700000000 0 5 600",
                "delete https://cdn.example.com/1.mp3 1700000000",
                "unsubscribe \(feedURL) 1700000000",
            ])
    }

    /// An episode fetched by its URL alone has no name on the server: nothing is written.
    @Test func anEpisodeOfNoFeedWritesNothing() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "Loose", sourceURL: "http://x/e.mp3", protection: .private)
        try download(episode, in: library)
        try library.markPlayed(episode)
        try library.removeFiles(of: episode)
        #expect(try library.outbox().isEmpty)
    }

    /// The entry is written in the change's transaction: a change that fails after its entry was
    /// written leaves neither, and an entry that cannot be written undoes the change.
    @Test func aFailedChangeLeavesNeitherTheChangeNorItsEntry() throws {
        let library = try makeLibrary()
        let (feed, episodes) = try subscribe(library)
        try library.markSent(try library.outbox())
        // The listening log is written after the entry.
        try injectFailure(library, on: "listening_log")
        #expect(throws: StoreError.self) {
            try library.savePlayback(
                PlaybackState(positionMilliseconds: 9_000, played: false), of: episodes[0],
                listened: ListeningTime(media: 1_000, wall: 1_000), play: PlaySpan(started: 0, position: 9, total: 600))
        }
        #expect(try library.playbackState(of: episodes[0]) == .start)
        #expect(try library.outbox().isEmpty)
        try library.database.execute("DROP TRIGGER fail")
        // The entry itself fails: the feed stays subscribed, the episode unplayed.
        try injectFailure(library, on: "outbox")
        #expect(throws: StoreError.self) { try library.unsubscribe(feed, deleteFiles: false) }
        #expect(try library.feed(id: feed.id) != nil)
        #expect(throws: StoreError.self) { try library.markPlayed(episodes[0]) }
        #expect(try library.playbackState(of: episodes[0]) == .start)
        #expect(try library.outbox().isEmpty)
    }
}
