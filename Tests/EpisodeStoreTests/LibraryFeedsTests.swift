import Foundation
import Testing

@testable import EpisodeStore

/// Subscriptions and the identity of episodes across refreshes: no duplicates, no lost episodes.
@Suite struct LibraryFeedsTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    private func item(
        _ number: Int, guid: String? = nil, url: String? = nil, key: String? = nil, title: String? = nil,
        date: Int? = nil
    ) -> EpisodeMetadata {
        let source = url ?? "https://cdn.example.com/\(number).mp3"
        var item = EpisodeMetadata(
            title: title ?? "Episode \(number)", sourceURL: source, mediaKey: key ?? "cdn.example.com/\(number).mp3")
        item.guid = guid
        item.publishedAt = date ?? 1_700_000_000 + number * 86_400
        return item
    }

    private func subscribe(_ library: Library, _ items: [EpisodeMetadata]) throws -> Feed {
        try library.subscribe(
            url: "https://example.com/feed.xml", metadata: FeedMetadata(title: "Show"), episodes: items, etag: "\"1\"",
            lastModified: nil, protection: .private
        ).0
    }

    private func refresh(_ library: Library, _ feed: Feed, _ items: [EpisodeMetadata]) throws -> MergeSummary {
        try library.refresh(
            feed, url: feed.url, metadata: FeedMetadata(title: "Show"), episodes: items, etag: nil, lastModified: nil,
            protection: .private)
    }

    private func episodes(_ library: Library, _ feed: Feed) throws -> [Episode] {
        var filter = EpisodeFilter()
        filter.feedID = feed.id
        return try library.listing(filter).compactMap { try library.episode(id: $0.id) }
    }

    @Test func subscribingRecordsEveryEpisodeAndOnlyTheNewestIsNew() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, (1...5).map { item($0, guid: "g\($0)") })
        let all = try episodes(library, feed)
        #expect(all.count == 5)
        #expect(all.filter(\.isNew).map(\.title) == ["Episode 5"])
        #expect(all.allSatisfy { $0.state == .new && $0.feedID == feed.id && $0.inFeed })
        #expect(try library.feeds().first?.new == 1)
    }

    @Test func aRefreshWithTheSameItemsChangesNothing() throws {
        let library = try makeLibrary()
        let items = (1...5).map { item($0, guid: "g\($0)") }
        let feed = try subscribe(library, items)
        let before = try episodes(library, feed).map(\.uuid)
        let summary = try refresh(library, feed, items)
        #expect(summary.added == 0 && summary.matched == 5 && summary.dropped == 0)
        #expect(try episodes(library, feed).map(\.uuid) == before)
    }

    /// A refresh rewrites no row it leaves as it was (each rewrite copies pages to a statement
    /// journal: a changed feed of 1,000 episodes wrote ~10 MB for nothing), only what changed.
    @Test func aRefreshWritesOnlyTheEpisodesAndTextsThatChanged() throws {
        let library = try makeLibrary()
        var items = (1...5).map { item($0, guid: "g\($0)") }
        items[1].description = "<p>notes</p>"
        let feed = try subscribe(library, items)
        try library.database.execute(
            """
            CREATE TEMP TABLE writes (what TEXT);
            CREATE TEMP TRIGGER episode_written AFTER UPDATE ON episodes BEGIN
                INSERT INTO writes VALUES ('episode ' || new.id);
            END;
            CREATE TEMP TRIGGER texts_written AFTER UPDATE ON episode_texts BEGIN
                INSERT INTO writes VALUES ('texts ' || new.episode_id);
            END;
            """)
        func writes() throws -> [String] {
            try library.database.rows("SELECT what FROM writes ORDER BY rowid").compactMap { $0.string(0) }
        }
        _ = try refresh(library, feed, items)
        #expect(try writes().isEmpty)

        let ids = try episodes(library, feed).map(\.id)
        items[2].title = "Episode 3, retitled"
        items[3].description = "<p>new notes</p>"
        _ = try refresh(library, feed, items)
        let third = try #require(try episodes(library, feed).first { $0.title == "Episode 3, retitled" })
        let fourth = try #require(try episodes(library, feed).first { $0.title == "Episode 4" })
        #expect(Set(ids).isSuperset(of: [third.id, fourth.id]))
        #expect(try writes() == ["episode \(third.id)", "texts \(fourth.id)"])
    }

    @Test func newItemsOfARefreshAreAddedAndMarkedNew() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, (1...3).map { item($0, guid: "g\($0)") })
        let summary = try refresh(library, feed, (1...5).map { item($0, guid: "g\($0)") })
        #expect(summary.added == 2)
        #expect(
            try episodes(library, feed).filter(\.isNew).map(\.title).sorted() == [
                "Episode 3", "Episode 4", "Episode 5",
            ])
    }

    @Test func aNewTrackerPrefixWithoutGuidsMakesNoDuplicates() throws {
        let library = try makeLibrary()
        let feed = try subscribe(
            library, (1...4).map { item($0, url: "https://dts.podtrac.com/redirect.mp3/cdn.example.com/\($0).mp3") })
        let summary = try refresh(
            library, feed, (1...4).map { item($0, url: "https://chtbl.com/track/X/cdn.example.com/\($0).mp3") })
        #expect(summary.added == 0 && summary.matched == 4)
        let all = try episodes(library, feed)
        #expect(all.count == 4)
        #expect(all.allSatisfy { $0.sourceURL.hasPrefix("https://chtbl.com/") })
    }

    @Test func changedGuidsWithTheSameEnclosuresMakeNoDuplicates() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, (1...3).map { item($0, guid: "old-\($0)") })
        let summary = try refresh(library, feed, (1...3).map { item($0, guid: "new-\($0)") })
        #expect(summary.added == 0)
        #expect(try episodes(library, feed).compactMap(\.guid).sorted() == ["new-1", "new-2", "new-3"])
    }

    @Test func titleAndDateRecogniseAnEpisodeWhoseGuidAndURLBothChanged() throws {
        let library = try makeLibrary()
        let feed = try subscribe(
            library, [item(1, guid: "a", url: "https://old.example/1.mp3", key: "old.example/1.mp3")])
        let summary = try refresh(
            library, feed, [item(1, guid: "b", url: "https://new.example/1.mp3", key: "new.example/1.mp3")])
        #expect(summary.added == 0 && summary.matched == 1)
    }

    @Test func twoItemsSharingAGuidStayTwoEpisodesAcrossRefreshes() throws {
        let library = try makeLibrary()
        let items = [item(1, guid: "dup"), item(2, guid: "dup"), item(3, guid: "g3")]
        let feed = try subscribe(library, items)
        #expect(try episodes(library, feed).count == 3)
        let summary = try refresh(library, feed, items)
        #expect(summary.added == 0 && summary.matched == 3)
        #expect(try episodes(library, feed).count == 3)
    }

    @Test func theSameItemListedTwiceIsOneEpisode() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, [item(1, guid: "g1"), item(1, guid: "g1"), item(2, guid: "g2")])
        #expect(try episodes(library, feed).count == 2)
        #expect(try refresh(library, feed, [item(1, guid: "g1"), item(1, guid: "g1")]).repeated == 1)
        #expect(try episodes(library, feed).count == 2)
    }

    @Test func aStrongerKeyLaterInTheDocumentWinsOverAWeakerOneEarlier() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, [item(1, guid: "g1", title: "Original")])
        let original = try #require(try episodes(library, feed).first)
        // A rerun with the same audio is listed above the original.
        let summary = try refresh(
            library, feed, [item(1, guid: "g9", title: "Rerun: Original"), item(1, guid: "g1", title: "Original")])
        #expect(summary.added == 1 && summary.matched == 1)
        let after = try episodes(library, feed)
        #expect(after.first { $0.id == original.id }?.guid == "g1")
        #expect(after.first { $0.id == original.id }?.title == "Original")
        #expect(after.first { $0.id != original.id }?.guid == "g9")
    }

    @Test func subscribingAgainFindsTheEpisodesKeptByAnUnsubscribe() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, (1...2).map { item($0, guid: "g\($0)") })
        let kept = try #require(try episodes(library, feed).first)
        try library.prepareDirectory(for: kept)
        try library.unsubscribe(feed, deleteFiles: false)
        let again = try subscribe(library, (1...2).map { item($0, guid: "g\($0)") })
        let after = try episodes(library, again)
        #expect(after.count == 2)
        #expect(after.contains { $0.id == kept.id })
        #expect(try library.episodes().count == 2, "no second record of the kept episode")
    }

    @Test func aRefreshOfAFeedUnsubscribedMeanwhileChangesNothing() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, [item(1, guid: "g1")])
        try library.unsubscribe(feed, deleteFiles: false)
        #expect(throws: StoreError.feedNotFound("\(feed.id)")) { try refresh(library, feed, [item(2, guid: "g2")]) }
        #expect(try library.episodes().isEmpty)
        // Feed numbers are never reused.
        let next = try subscribe(library, [])
        #expect(next.id != feed.id)
    }

    @Test func episodesTheFeedNoLongerListsAreKeptAndComeBack() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, (1...3).map { item($0, guid: "g\($0)") })
        #expect(try refresh(library, feed, [item(3, guid: "g3")]).dropped == 2)
        let afterDrop = try episodes(library, feed)
        #expect(afterDrop.count == 3)
        #expect(afterDrop.filter(\.inFeed).map(\.title) == ["Episode 3"])
        _ = try refresh(library, feed, (1...3).map { item($0, guid: "g\($0)") })
        #expect(try episodes(library, feed).allSatisfy(\.inFeed))
    }

    @Test func aDatelessEpisodeKeepsTheDateItWasFirstSeen() throws {
        let library = try makeLibrary()
        var dateless = item(9, guid: "nodate")
        dateless.publishedAt = nil
        let feed = try subscribe(library, [item(1, guid: "g1"), dateless])
        let first = try #require(try episodes(library, feed).first { $0.guid == "nodate" })
        #expect(first.publishedAt == nil)
        _ = try refresh(library, feed, [item(1, guid: "g1"), dateless, item(2, guid: "g2")])
        let again = try #require(try episodes(library, feed).first { $0.guid == "nodate" })
        #expect(again.sortDate == first.sortDate)
        #expect(!again.isNew)
    }

    @Test func aRefreshFailureIsRecordedAndClearedByTheNextSuccess() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, [item(1)])
        try library.record(.failed("server answered 500"), for: feed)
        try library.record(.failed("server answered 500"), for: feed)
        #expect(try library.feed(id: feed.id)?.lastError == "server answered 500")
        #expect(try library.feed(id: feed.id)?.failures == 2)
        try library.record(
            .unchanged(etag: "\"2\"", lastModified: nil), for: feed, url: "https://example.com/moved.xml")
        let after = try #require(try library.feed(id: feed.id))
        #expect(after.lastError == nil && after.failures == 0)
        #expect(after.etag == "\"2\"")
        #expect(after.url == "https://example.com/moved.xml")
    }

    @Test func feedsAreNamedByNumberURLOrAUniquePartOfTheTitle() throws {
        let library = try makeLibrary()
        let (one, _) = try library.subscribe(
            url: "https://a.example/feed", metadata: FeedMetadata(title: "The Daily"), episodes: [], etag: nil,
            lastModified: nil, protection: .private)
        let (two, _) = try library.subscribe(
            url: "https://b.example/feed", metadata: FeedMetadata(title: "Daily Tech News"), episodes: [], etag: nil,
            lastModified: nil, protection: .private)
        #expect(try library.feed(matching: "\(two.id)") == two)
        #expect(try library.feed(matching: "https://a.example/feed") == one)
        #expect(try library.feed(matching: "tech") == two)
        #expect(try library.feed(matching: "the daily") == one)
        #expect(throws: StoreError.ambiguousFeed("daily", titles: ["Daily Tech News", "The Daily"])) {
            try library.feed(matching: "daily")
        }
        #expect(throws: StoreError.feedNotFound("radio")) { try library.feed(matching: "radio") }
    }

    @Test func unsubscribingKeepsDownloadedEpisodesUnlessAskedAndForgetsTheRest() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, (1...3).map { item($0, guid: "g\($0)") })
        let downloaded = try #require(try episodes(library, feed).first)
        try library.prepareDirectory(for: downloaded)
        try Data("audio".utf8).write(to: URL(fileURLWithPath: library.directory(of: downloaded) + "/a.mp3"))
        #expect(try library.unsubscribe(feed, deleteFiles: false) == 1)
        #expect(try library.feeds().isEmpty)
        let remaining = try library.episodes()
        #expect(remaining.map(\.id) == [downloaded.id])
        #expect(remaining.first?.feedID == nil)
        #expect(FileManager.default.fileExists(atPath: library.directory(of: downloaded) + "/a.mp3"))

        let again = try subscribe(library, [item(4)])
        let other = try #require(try episodes(library, again).first)
        try library.prepareDirectory(for: other)
        try library.unsubscribe(again, deleteFiles: true)
        #expect(!FileManager.default.fileExists(atPath: library.directory(of: other)))
        #expect(try library.episodes().map(\.id) == [downloaded.id])
    }

    @Test func unsubscribingWithFilesToDeleteChangesNothingWhileOneIsBeingDownloaded() throws {
        let library = try makeLibrary()
        let feed = try subscribe(library, (1...2).map { item($0, guid: "g\($0)") })
        let busy = try #require(try episodes(library, feed).first)
        try library.prepareDirectory(for: busy)
        let lock = try library.lock(busy)
        _ = withExtendedLifetime(lock) {
            #expect(throws: StoreError.self) { try library.unsubscribe(feed, deleteFiles: true) }
        }
        #expect(try library.feeds().map(\.feed.id) == [feed.id])
        #expect(try episodes(library, feed).count == 2)
        #expect(FileManager.default.fileExists(atPath: library.directory(of: busy)))
    }

    @Test func listingFiltersBySearchTextAndNewness() throws {
        let library = try makeLibrary()
        var special = item(2, guid: "g2", title: "Interview with Ada")
        special.description = "<p>About 100% of the <b>engines</b></p>"
        let feed = try subscribe(library, [item(1, guid: "g1"), special, item(3, guid: "g3")])
        var filter = EpisodeFilter()
        filter.search = "ADA"
        #expect(try library.listing(filter).map(\.title) == ["Interview with Ada"])
        filter.search = "100%"
        #expect(try library.listing(filter).count == 1)
        filter.search = "_"
        #expect(try library.listing(filter).isEmpty)
        filter = EpisodeFilter()
        filter.onlyNew = true
        #expect(try library.listing(filter).map(\.title) == ["Episode 3"])
        let newest = try #require(try episodes(library, feed).first)
        try library.setPlaybackState(PlaybackState(positionMilliseconds: 0, played: true), of: newest)
        #expect(try library.listing(filter).isEmpty)
        filter = EpisodeFilter()
        filter.onlyPlayed = true
        #expect(try library.listing(filter).map(\.id) == [newest.id])
    }
}
