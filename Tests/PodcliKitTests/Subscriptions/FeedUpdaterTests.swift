import Downloads
import EpisodeStore
import Feeds
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// `FeedUpdater` in-process: subscribing and refreshing through real libcurl against the loopback
/// fault server into a real SQLite file. A body that is not a whole feed changes nothing stored.
@Suite struct FeedUpdaterTests {
    /// A test's library and the updater `fetch` and `refresh` use.
    struct Shelf {
        let t: TestLibrary
        let updater: FeedUpdater

        init() throws {
            t = try TestLibrary()
            updater = FeedUpdater(
                library: t.library, fetcher: FeedFetcher(policy: TestLibrary.policy(attempts: 3)), protection: .private)
        }

        func subscribe(_ url: String) throws -> (Feed, MergeSummary) {
            guard case .subscribed(let feed, let summary) = try updater.subscribe(url: url) else {
                throw TestSupportError("\(url) was not a new subscription")
            }
            return (feed, summary)
        }

        func refresh(_ id: Int = 1) throws -> FeedUpdater.Outcome {
            try updater.refresh(try #require(try t.library.feed(id: id)))
        }

        func uuids() throws -> [String] { try t.library.episodes().map(\.uuid).sorted() }

        /// No feed, no episode, no file: what a refused body leaves.
        func expectNothingStored(sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try t.library.subscriptions().isEmpty, sourceLocation: sourceLocation)
            #expect(try t.library.episodes().isEmpty, sourceLocation: sourceLocation)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: t.library.episodesDirectory).isEmpty,
                sourceLocation: sourceLocation)
            let kept = try FileManager.default.contentsOfDirectory(atPath: t.directory)
            #expect(Set(kept).isSubset(of: ["podcli.db", "podcli.db-wal", "podcli.db-shm", "episodes"]), "\(kept)")
        }
    }

    // MARK: - Subscribing and refreshing

    @Test func subscribingRecordsEveryEpisodeMarksOnlyTheNewestNewAndDownloadsNothing() throws {
        let s = try Shelf()
        let token = UUID().uuidString
        let items = (1...3).reversed().map { n in
            RSS.Item(
                title: "Episode \(n)", guid: "ep-\(n)", published: 1_735_689_600 + n * 86_400,
                url: s.t.server.url("/gen/\(10_000 + n).mp3?t=\(token)"), length: 10_000 + n)
        }
        let url = try s.t.serve("feed.xml", RSS(title: "The Show", items: items).text)
        let (feed, summary) = try s.subscribe(url)
        #expect(feed.id == 1 && feed.url == url && feed.title == "The Show" && feed.failures == 0)
        #expect(feed.etag != nil && feed.checkedAt != nil && feed.lastError == nil)
        #expect(try summary.added == 3 && summary.newEpisodeIDs == [s.t.episode("Episode 3").id])

        let episodes = try s.t.library.episodes().sorted { $0.sortDate > $1.sortDate }
        #expect(episodes.map(\.title) == ["Episode 3", "Episode 2", "Episode 1"])
        #expect(episodes.map(\.isNew) == [true, false, false])
        #expect(episodes.allSatisfy { $0.state == .new && $0.feedID == 1 && $0.protection == .private })
        #expect(Set(episodes.map(\.sourceURL)) == Set(items.map(\.url)))
        #expect(episodes.map(\.enclosureLength) == [10_003, 10_002, 10_001])
        // Nothing was downloaded: no audio asked for, no episode directory, no body left behind.
        #expect(try s.t.server.stats().filter { $0.path.contains(token) }.isEmpty)
        try s.expectNoEpisodeFiles()
    }

    @Test func aRefreshIsConditionalAndAChangedFeedAddsExactlyTheNewItem() throws {
        let s = try Shelf()
        var items = RSS.unfetched(3)
        let url = try s.t.serve("feed.xml", RSS(title: "Weekly", items: items).text)
        _ = try s.subscribe(url)
        let before = try s.uuids()

        guard case .unchanged(let unchanged) = try s.refresh() else { throw TestSupportError("not a 304") }
        let conditional = try #require(try s.t.gets("feed.xml").last)
        #expect(conditional.status == 304 && conditional.ifNoneMatch == unchanged.etag && unchanged.etag != nil)
        #expect(try s.uuids() == before)

        items.insert(RSS.unfetched(4)[0], at: 0)
        try s.t.serve("feed.xml", RSS(title: "Weekly", items: items).text)
        guard case .refreshed(let feed, let summary) = try s.refresh() else { throw TestSupportError("not refreshed") }
        let changed = try #require(try s.t.gets("feed.xml").last)
        #expect(changed.status == 200 && changed.ifNoneMatch == conditional.ifNoneMatch)
        #expect(
            try summary.added == 1 && summary.matched == 3 && summary.newEpisodeIDs == [s.t.episode("Episode 4").id])
        #expect(feed.etag != unchanged.etag && feed.changedAt != nil)
        #expect(try Set(s.uuids()).isSuperset(of: before) && s.uuids().count == 4)
        #expect(try s.t.library.episodes().filter(\.isNew).map(\.title).sorted() == ["Episode 3", "Episode 4"])
    }

    @Test func aGzippedFeedIsAskedForAndReadCorrectly() throws {
        let s = try Shelf()
        let document = RSS(title: "Compressed Cast", items: RSS.unfetched(5)).text
        let url = try s.t.serve("feed.xml", document) + "?gzip=1"
        let (feed, summary) = try s.subscribe(url)
        #expect(feed.title == "Compressed Cast" && feed.url == url && summary.added == 5)
        let request = try #require(try s.t.gets("feed.xml").first)
        #expect(request.acceptEncoding?.contains("gzip") == true)
        #expect(request.bodyBytesSent < document.utf8.count, "the body came compressed")
    }

    @Test func itemsTheFeedNoLongerListsKeepTheirRecords() throws {
        let s = try Shelf()
        let url = try s.t.serve("feed.xml", RSS(title: "Shrinking", items: RSS.unfetched(3)).text)
        _ = try s.subscribe(url)
        try s.t.serve("feed.xml", RSS(title: "Shrinking", items: Array(RSS.unfetched(3).prefix(2))).text)
        guard case .refreshed(_, let summary) = try s.refresh() else { throw TestSupportError("not refreshed") }
        #expect(summary.dropped == 1 && summary.matched == 2 && summary.added == 0)
        #expect(try s.t.episode("Episode 1").inFeed == false && s.t.episode("Episode 2").inFeed)
    }

    // MARK: - Moved feeds

    @Test(arguments: [("/permanent", true), ("/moved", true), ("/redirect/1", false)])
    func aPermanentRedirectMovesTheSubscriptionATemporaryOneDoesNot(prefix: String, permanent: Bool) throws {
        let s = try Shelf()
        let target = try s.t.serve("feed.xml", RSS(title: "Wanderer", items: RSS.unfetched(1)).text)
        let requested = s.t.server.url(prefix + s.t.path("feed.xml"))
        let (feed, _) = try s.subscribe(requested)
        #expect(feed.url == (permanent ? target : requested))

        // The address the user typed still names the same subscription.
        guard case .refreshed(let again, let summary) = try s.updater.subscribe(url: requested) else {
            throw TestSupportError("subscribed twice")
        }
        #expect(again.id == feed.id && summary.added == 0 && summary.matched == 1)
        #expect(try s.t.library.subscriptions().count == 1 && s.t.library.episodes().count == 1)
    }

    @Test func aFeedThatMovedPermanentlyIsFollowedEvenWhenItAnswers304() throws {
        let s = try Shelf()
        let target = try s.t.serve("feed.xml", RSS(title: "Mover", items: RSS.unfetched(1)).text)
        _ = try s.subscribe(target)
        // The publisher moved the feed since: the address on record now redirects for good.
        let old = s.t.server.url("/permanent" + s.t.path("feed.xml"))
        try s.t.library.database.run("UPDATE feeds SET url = ? WHERE id = 1", [.text(old)])

        guard case .unchanged(let feed) = try s.refresh() else { throw TestSupportError("not a 304") }
        #expect(try s.t.gets("feed.xml").last?.status == 304)
        #expect(feed.url == target && feed.lastError == nil)
    }

    @Test func itunesNewFeedURLMovesTheSubscriptionOnSubscribeAndOnRefreshButOnlyToHTTP() throws {
        let s = try Shelf()
        let new = s.t.url("new.xml")
        let old = try s.t.serve(
            "old.xml",
            RSS(
                title: "Mover", items: RSS.unfetched(2),
                channelExtra: "<itunes:new-feed-url>\(new)</itunes:new-feed-url>"
            )
            .text)
        try s.t.serve("new.xml", RSS(title: "Mover", items: RSS.unfetched(2)).text)
        #expect(try s.subscribe(old).0.url == new)
        _ = try s.refresh()
        #expect(try s.t.gets("new.xml").count == 1, "the refresh went to the new address")

        // A subscribed feed that announces a move on a later refresh; and one that names a file.
        let later = try Shelf()
        let start = try later.t.serve("feed.xml", RSS(title: "Later", items: RSS.unfetched(2)).text)
        let destination = try later.t.serve("moved.xml", RSS(title: "Later", items: RSS.unfetched(2)).text)
        let stayer = try later.t.serve(
            "stayer.xml",
            RSS(
                title: "Stayer", items: RSS.unfetched(1, show: "s"),
                channelExtra: "<itunes:new-feed-url>file:///etc/passwd</itunes:new-feed-url>"
            ).text)
        _ = try later.subscribe(start)
        #expect(try later.subscribe(stayer).0.url == stayer)
        try later.t.serve(
            "feed.xml",
            RSS(
                title: "Later", items: RSS.unfetched(2),
                channelExtra: "<itunes:new-feed-url>\(destination)</itunes:new-feed-url>"
            )
            .text)
        guard case .refreshed(let moved, _) = try later.refresh(1) else { throw TestSupportError("not refreshed") }
        #expect(moved.url == destination)
        // The new URL names the existing subscription.
        guard case .refreshed(let same, _) = try later.updater.subscribe(url: destination) else {
            throw TestSupportError("subscribed twice")
        }
        #expect(try same.id == 1 && later.t.library.subscriptions().count == 2)
    }
}

extension FeedUpdaterTests.Shelf {
    func expectNoEpisodeFiles(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: t.library.episodesDirectory).isEmpty,
            sourceLocation: sourceLocation)
    }
}
