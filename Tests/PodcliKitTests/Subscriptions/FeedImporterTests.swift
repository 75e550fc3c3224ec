import Downloads
import Foundation
import TestSupport
import Testing

@testable import EpisodeStore
@testable import PodcliKit

/// `FeedImporter` in-process (`podcli import`): feeds fetched ahead on a thread of their own and
/// recorded several to a transaction come out as subscribing them one by one would make them,
/// and a feed that fails changes nothing but itself.
@Suite struct FeedImporterTests {
    /// What the importer told, in order.
    final class Told: ImportReporter {
        var recorded: [String] = []
        var failed: [(url: String, error: String)] = []

        func recorded(_ url: String, _ outcome: FeedUpdater.Outcome) { recorded.append(url) }
        func failed(_ url: String, _ error: any Error) { failed.append((url, "\(error)")) }
    }

    /// Feeds of `count` episodes each, with descriptions, served by `t`.
    private func serveFeeds(_ t: TestLibrary, _ names: [String], episodes count: Int = 12) throws -> [String] {
        try names.enumerated().map { index, name in
            let items = (1...count).reversed().map { n in
                RSS.Item(
                    title: "\(name) \(n)", guid: "\(name)-\(n)", published: 1_735_689_600 + n * 86_400 + index * 3_600,
                    url: "https://media.example.com/\(name)/\(n).mp3")
            }
            return try t.serve("\(name).xml", RSS(title: "Show \(name)", items: items).text)
        }
    }

    /// Every row an import writes, without what differs between two runs (UUIDs, "now").
    private func rows(_ library: Library) throws -> [[SQLValue]] {
        let queries = [
            """
            SELECT id, feed_id, title, source_url, media_key, guid, published_at, sort_date, state, is_new, in_feed
            FROM episodes ORDER BY id
            """,
            "SELECT id, url, title, etag, last_modified, episode_count, failures, last_error FROM feeds ORDER BY id",
            "SELECT * FROM episode_texts ORDER BY episode_id",
        ]
        return try queries.flatMap { try library.database.rows($0).map(\.values) }
    }

    private func importer(_ library: Library) -> FeedImporter {
        var limits = WriteBatch.Limits()
        limits.writes = 3  // several batches, several feeds in each
        return FeedImporter(
            library: library, policy: TestLibrary.policy(attempts: 1), protection: .private, limits: limits)
    }

    @Test func anImportRecordsWhatSubscribingTheFeedsOneByOneRecords() throws {
        let t = try TestLibrary()
        // Twelve into an empty library: a load in bulk (`Library.loadingInBulk`).
        let urls = try serveFeeds(t, (1...12).map { "feed\($0)" })
        let told = Told()
        try importer(t.library).run(urls + [urls[2]], reporter: told)
        #expect(told.failed.isEmpty, "\(told.failed)")
        #expect(told.recorded == urls + [urls[2]])

        let oneByOne = try TemporaryDirectory(prefix: "podcli-kit")
        let library = try Library(directory: oneByOne.path)
        let updater = FeedUpdater(
            library: library, fetcher: FeedFetcher(policy: TestLibrary.policy(attempts: 1)), protection: .private)
        for url in urls + [urls[2]] {
            if let feed = try library.feed(url: url) {
                _ = try updater.refresh(feed)
            } else {
                _ = try updater.subscribe(url: url)
            }
        }
        let imported = try rows(t.library)
        #expect(imported.count == 12 * 12 + 12 + 12 * 12)
        #expect(try rows(library) == imported)
        // The date index dropped for the load is back, and lists as the other library's does.
        let dateIndex = "SELECT count(*) FROM sqlite_schema WHERE name = 'episodes_newest'"
        #expect(try t.library.database.rows(dateIndex)[0].int(0) == 1)
        #expect(try t.library.database.rows("SELECT count(*) FROM deferred_indexes")[0].int(0) == 0)
        #expect(try t.library.listing(EpisodeFilter()).map(\.id) == library.listing(EpisodeFilter()).map(\.id))
        var search = EpisodeFilter()
        search.search = "feed5"
        #expect(try t.library.count(search) == 12)
    }

    @Test func aFeedThatFailsUndoesOnlyItselfAndAnAlreadySubscribedOneRecordsItsFailure() throws {
        let t = try TestLibrary()
        var urls = try serveFeeds(t, ["a", "b", "c"])
        let told = Told()
        try importer(t.library).run([urls[0]], reporter: told)
        try t.serve("a.xml", "<rss><channel><title>cut off")
        urls.insert(try t.serve("broken.xml", "<html><body>not a feed</body></html>"), at: 1)
        urls.insert(t.url("missing.xml"), at: 2)
        try importer(t.library).run(urls, reporter: told)
        #expect(told.failed.map(\.url) == [urls[0], urls[1], urls[2]], "\(told.failed)")
        #expect(try t.library.subscriptions().map(\.url) == [urls[0], urls[3], urls[4]])
        #expect(try t.library.feeds().map(\.episodes) == [12, 12, 12])
        let a = try #require(try t.library.feed(url: urls[0]))
        #expect(a.failures == 1)
        #expect(a.lastError != nil)
    }
}
