import Digest
import Foundation
import Testing

@testable import EpisodeStore

/// The library's side of a sync server: its state row, what waits to go up, the server's
/// subscription changes and URL rewrites, none of them echoed back to the outbox.
@Suite struct LibraryRemoteTests {
    let directory = TestDirectory()
    let clock = TestClock(1_700_000_000)

    private func makeLibrary() throws -> Library {
        try Library(directory: directory.path + "/data", clock: clock.reading)
    }

    private func items(_ count: Int, under base: String = "https://cdn.example.com/") -> [EpisodeMetadata] {
        (1...count).map { number in
            var item = EpisodeMetadata(
                title: "E\(number)", sourceURL: base + "\(number).mp3",
                mediaKey: String(base.drop { $0 != "/" }.dropFirst(2)) + "\(number).mp3")
            item.guid = base + "\(number)"
            item.publishedAt = 1_600_000_000 + number
            return item
        }
    }

    @discardableResult
    private func subscribe(_ library: Library, _ url: String) throws -> Feed {
        try library.subscribe(
            url: url, metadata: FeedMetadata(title: url), episodes: items(2), etag: nil, lastModified: nil,
            protection: .private
        ).0
    }

    private func outbox(_ library: Library) throws -> [String] {
        try library.outbox().map { "\($0.action.rawValue) \($0.episodeURL ?? $0.podcastURL)" }
    }

    @Test func theRemoteStateRowRoundTrips() throws {
        let library = try makeLibrary()
        #expect(try library.remoteState() == RemoteState())
        let state = RemoteState(
            account: "https://gpodder.example anna podcli-laptop gpodder", subscriptionsSince: 1_700_000_001,
            actionsSince: 1_700_000_002, deviceRegistered: true, devicesLinked: true, lastExchange: 1_700_000_003,
            lastError: "gpodder.example: 503 Service Unavailable", lastErrorAt: 1_700_000_004)
        try library.setRemoteState(state)
        #expect(try library.remoteState() == state)
        // Another account's exchange starts over (the app's rule): the row takes it whole.
        try library.setRemoteState(RemoteState(account: "other"))
        #expect(try Library(directory: directory.path + "/data").remoteState() == RemoteState(account: "other"))
    }

    /// `mark unplayed` is a `new` (replacing a pending play), `mark played` a play at the
    /// episode's end; `remote status` counts what waits per action.
    @Test func marksGoToTheOutboxAndAreCounted() throws {
        let library = try makeLibrary()
        let feed = try library.subscribe(
            url: "https://example.com/feed.xml", metadata: FeedMetadata(title: "F"),
            episodes: items(2).map { item in
                var item = item
                item.durationMilliseconds = 600_000
                return item
            }, etag: nil, lastModified: nil, protection: .private
        ).0
        var all = EpisodeSelection()
        all.feedID = feed.id
        #expect(try library.mark(.played, all).changed == 2)
        var first = EpisodeSelection()
        first.ids = [try library.episodes().first { $0.title == "E1" }!.id]
        clock.now += 5
        #expect(try library.mark(.unplayed, first).changed == 1)
        let entries = try library.outbox()
        #expect(
            entries.map { "\($0.action.rawValue) \($0.episodeURL ?? "") \($0.timestamp)" } == [
                "subscribe  1700000000", "play https://cdn.example.com/2.mp3 1700000000",
                "new https://cdn.example.com/1.mp3 1700000005",
            ])
        #expect(entries[1].play == PlaySpan(started: 600, position: 600, total: 600))
        #expect(entries[2].play == nil && entries[2].guid == "https://cdn.example.com/1")
        #expect(try library.outboxCounts() == [.subscribe: 1, .play: 1, .new: 1])
    }

    /// The server's subscriptions: a feed with no content yet whose first refresh marks only its
    /// newest new; an unsubscribe keeping the files; neither in the outbox; a URL with credentials
    /// here is the server's without; a pending opposite change here wins.
    @Test func remoteSubscriptionsAreAppliedWithoutEcho() throws {
        let library = try makeLibrary()
        let kept = try subscribe(library, "https://anna:pw@private.example/feed")
        let episode = try library.episodes().first { $0.feedID == kept.id }!
        try library.prepareDirectory(for: episode)
        let path = library.directory(of: episode) + "/e.mp3.part"
        try Data("abc".utf8).write(to: URL(fileURLWithPath: path))
        _ = try library.recordDownload(
            of: episode, partialName: "e.mp3.part", finalName: "e.mp3", size: 3, sha256: SHA256.ofFile(atPath: path)!,
            contentType: nil)
        let wanted = try subscribe(library, "https://wanted.example/feed")
        try library.markSent(try library.outbox())
        try library.unsubscribe(wanted, deleteFiles: false)  // here, since: not re-added
        clock.now += 10
        let summary = try library.applyRemoteSubscriptions(
            added: ["https://new.example/feed", "https://wanted.example/feed", "https://private.example/feed"],
            removed: ["https://private.example/feed", "https://never.example/feed"], deleteFiles: false)
        #expect(summary.added.map(\.url) == ["https://new.example/feed"])
        #expect(summary.removed == ["https://private.example/feed"])
        #expect(summary.skipped == ["https://wanted.example/feed"])
        #expect(try outbox(library) == ["unsubscribe https://wanted.example/feed"])
        #expect(try library.subscriptions().map(\.url) == ["https://new.example/feed"])
        #expect(FileManager.default.fileExists(atPath: library.directory(of: episode) + "/e.mp3"))
        let added = summary.added[0]
        #expect(added.checkedAt == nil && added.subscribedAt == 1_700_000_010)
        #expect(try library.episodes().filter { $0.feedID == added.id }.isEmpty)
        // Its first refresh is a first read: only the newest episode is new.
        let merged = try library.refresh(
            added, url: added.url, metadata: FeedMetadata(title: "New"),
            episodes: items(3, under: "https://new.example/").map { item in
                var item = item  // not the kept episode's date, which would match it by title and date
                item.publishedAt = item.publishedAt.map { $0 + 1_000 }
                return item
            }, etag: nil,
            lastModified: nil, protection: .private)
        #expect(merged.added == 3 && merged.newEpisodeIDs.count == 1, "\(merged)")
        #expect(try library.episodes().filter { $0.feedID == added.id && $0.isNew }.map(\.title) == ["E3"])
        // A pending subscribe here keeps the feed the server says was removed.
        try subscribe(library, "https://mine.example/feed")
        let again = try library.applyRemoteSubscriptions(
            added: [], removed: ["https://mine.example/feed"], deleteFiles: true)
        #expect(again.skipped == ["https://mine.example/feed"] && again.removed.isEmpty)
        #expect(try library.feed(url: "https://mine.example/feed") != nil)
    }

    /// mygpo's update_urls: the feed, its episodes' enclosures and the pending outbox entries
    /// move; a local feed keeps its credentials, and a rewrite that only drops them is no change.
    @Test func rewrittenURLsMoveFeedsEpisodesAndTheOutbox() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, "https://anna:pw@old.example/feed")
        let plain = try subscribe(library, "http://plain.example/feed ")
        let episode = try library.episodes().first { $0.feedID == plain.id && $0.title == "E1" }!
        try library.savePlayback(
            .start, of: episode, listened: ListeningTime(), play: PlaySpan(started: 0, position: 5, total: nil))
        try library.rewriteURLs([
            (from: "https://old.example/feed", to: "https://old.example/feed"),
            (from: "https://anna:pw@old.example/feed", to: "https://old.example/feed"),
        ])
        #expect(try library.feed(id: feed.id)?.url == "https://anna:pw@old.example/feed")
        try library.rewriteURLs([
            (from: "https://old.example/feed", to: "https://new.example/feed"),
            (from: "http://plain.example/feed ", to: "http://plain.example/feed"),
            (from: "https://cdn.example.com/1.mp3", to: "https://cdn2.example.com/1.mp3"),
        ])
        #expect(try library.feed(id: feed.id)?.url == "https://anna:pw@new.example/feed")
        #expect(try library.feed(id: plain.id)?.url == "http://plain.example/feed")
        #expect(
            try outbox(library) == [
                "subscribe https://anna:pw@new.example/feed", "subscribe http://plain.example/feed",
                "play https://cdn2.example.com/1.mp3",
            ])
        #expect(try library.outbox().last?.podcastURL == "http://plain.example/feed")
        let moved = try library.episodes().filter { $0.sourceURL == "https://cdn2.example.com/1.mp3" }
        #expect(moved.count == 2)
        // Still the same episodes to a refresh: their identity did not move with the URL.
        // (No guids, new titles: the enclosure's media key is what finds them.)
        let merged = try library.refresh(
            try library.feed(id: plain.id)!, url: "http://plain.example/feed", metadata: FeedMetadata(title: "P"),
            episodes: items(2).map { item in
                var item = item
                item.guid = nil
                item.title += " (renamed)"
                return item
            }, etag: nil, lastModified: nil, protection: .private)
        #expect(merged.added == 0 && merged.matched == 2)
    }

    /// The rebuild that lets the outbox hold `new` keeps what waited in it, in its order.
    @Test func theOutboxKeepsItsEntriesThroughTheRebuild() throws {
        let migrator = Migrator()
        let remote = try #require(migrator.migrations.first { $0.name.hasSuffix("_remote.sql") })
        let database = try Database(path: directory.path + "/old.db")
        try migrator.migrate(database, upTo: remote.version - 1)
        try database.execute(
            """
            INSERT INTO outbox (id, action, podcast_url, episode_url, guid, at, started, position, total) VALUES
                (7, 'play', 'https://e.example/f', 'https://e.example/1.mp3', 'g1', 1700000000, 0, 30, 600),
                (9, 'subscribe', 'https://e.example/f', NULL, NULL, 1700000001, NULL, NULL, NULL)
            """)
        try migrator.migrate(database)
        let rows = try database.rows("SELECT id, action, episode_url, guid, at, position FROM outbox ORDER BY id")
        #expect(
            rows.map { "\($0.int(0)!) \($0.string(1)!) \($0.string(2) ?? "-") \($0.int(4)!)" } == [
                "7 play https://e.example/1.mp3 1700000000", "9 subscribe - 1700000001",
            ])
        try database.execute(
            "INSERT INTO outbox (action, podcast_url, episode_url, at) VALUES ('new', 'https://e.example/f', 'u', 1)")
    }
}
