import Foundation
import Testing

@testable import EpisodeStore

/// Bookmarks: recorded, listed and removed by number; deleted with their feed on unsubscribe
/// unless kept, and then still named by the titles they had.
@Suite struct LibraryBookmarksTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    /// A feed "Show" of episodes "Episode 1"... at https://cdn.example.com/N.mp3.
    private func subscribe(_ library: Library, episodes count: Int) throws -> (Feed, [Episode]) {
        let items = (1...count).map { number in
            var item = EpisodeMetadata(
                title: "Episode \(number)", sourceURL: "https://cdn.example.com/\(number).mp3",
                mediaKey: "cdn.example.com/\(number).mp3")
            item.guid = "g\(number)"
            item.publishedAt = 1_700_000_000 + number * 86_400
            return item
        }
        let feed = try library.subscribe(
            url: "https://example.com/feed.xml", metadata: FeedMetadata(title: "Show"), episodes: items, etag: nil,
            lastModified: nil, protection: .private
        ).0
        let episodes = try library.episodes().filter { $0.feedID == feed.id }.sorted { $0.title < $1.title }
        return (feed, episodes)
    }

    @Test func bookmarksAreListedInTheOrderMadeAndOneEpisodesInItsOwnOrder() throws {
        let library = try makeLibrary()
        let (_, episodes) = try subscribe(library, episodes: 2)
        let late = try library.addBookmark(
            to: episodes[0], positionMilliseconds: 90_500, chapter: "Part two", note: "the quote")
        try library.addBookmark(to: episodes[1], positionMilliseconds: 1_000, chapter: nil, note: nil)
        let early = try library.addBookmark(to: episodes[0], positionMilliseconds: 12_000, chapter: nil, note: nil)
        #expect(late.episodeID == episodes[0].id && late.episodeTitle == "Episode 1" && late.feedTitle == "Show")
        #expect(late.positionMilliseconds == 90_500 && late.chapter == "Part two" && late.note == "the quote")
        #expect(late.sourceURL == "https://cdn.example.com/1.mp3")
        #expect(try library.bookmarks().map(\.id) == [late.id, late.id + 1, early.id])
        #expect(try library.bookmarks(of: episodes[0]).map(\.positionMilliseconds) == [12_000, 90_500])
    }

    @Test func aRemovedBookmarksNumberIsNeverGivenAgain() throws {
        let library = try makeLibrary()
        let (_, episodes) = try subscribe(library, episodes: 1)
        let first = try library.addBookmark(to: episodes[0], positionMilliseconds: 5_000, chapter: nil, note: nil)
        #expect(try library.removeBookmark(first.id))
        #expect(try !library.removeBookmark(first.id))
        #expect(try library.bookmarks().isEmpty)
        let next = try library.addBookmark(to: episodes[0], positionMilliseconds: 5_000, chapter: nil, note: nil)
        #expect(next.id == first.id + 1)
    }

    @Test func aBookmarkOfAnEpisodeRemovedMeanwhileIsRefused() throws {
        let library = try makeLibrary()
        let episode = try library.createEpisode(title: "Gone", sourceURL: "http://x/1.mp3", protection: .private)
        try library.database.run("DELETE FROM episodes WHERE id = ?", [SQLValue(episode.id)])
        #expect(throws: StoreError.episodeNotFound("\(episode.id)")) {
            try library.addBookmark(to: episode, positionMilliseconds: 0, chapter: nil, note: nil)
        }
        #expect(try library.bookmarks().isEmpty)
    }

    /// Unsubscribing deletes the feed's bookmarks, also those of an episode kept with its files.
    @Test func unsubscribingDeletesTheFeedsBookmarks() throws {
        let library = try makeLibrary()
        let (feed, episodes) = try subscribe(library, episodes: 2)
        let other = try library.createEpisode(title: "Other", sourceURL: "http://x/o.mp3", protection: .private)
        try library.prepareDirectory(for: episodes[0])
        try library.addBookmark(to: episodes[0], positionMilliseconds: 1_000, chapter: nil, note: "kept file")
        try library.addBookmark(to: episodes[1], positionMilliseconds: 2_000, chapter: nil, note: "forgotten")
        try library.addBookmark(to: other, positionMilliseconds: 3_000, chapter: nil, note: "another feed's")
        #expect(try library.unsubscribe(feed, deleteFiles: false) == 1)
        #expect(try library.bookmarks().map(\.note) == ["another feed's"])
    }

    /// With `keepBookmarks`, a forgotten episode's bookmark lets go of it and keeps its titles
    /// and audio URL; a kept episode's stays with it and keeps the feed's title.
    @Test func unsubscribingWithKeepBookmarksKeepsThemWithTheirTitles() throws {
        let library = try makeLibrary()
        let (feed, episodes) = try subscribe(library, episodes: 2)
        try library.prepareDirectory(for: episodes[0])
        try library.addBookmark(to: episodes[0], positionMilliseconds: 1_000, chapter: "Intro", note: "kept file")
        try library.addBookmark(to: episodes[1], positionMilliseconds: 2_000, chapter: nil, note: "forgotten")
        #expect(try library.unsubscribe(feed, deleteFiles: false, keepBookmarks: true) == 1)
        #expect(try library.episodes().map(\.id) == [episodes[0].id])
        let kept = try library.bookmarks()
        #expect(kept.map(\.episodeID) == [episodes[0].id, nil])
        #expect(kept.map(\.episodeTitle) == ["Episode 1", "Episode 2"])
        #expect(kept.map(\.feedTitle) == ["Show", "Show"])
        #expect(kept.map(\.sourceURL) == ["https://cdn.example.com/1.mp3", "https://cdn.example.com/2.mp3"])
        #expect(kept.map(\.chapter) == ["Intro", nil])
        #expect(kept.map(\.positionMilliseconds) == [1_000, 2_000])
        // The kept episode removed later takes its bookmark along.
        try library.database.run("DELETE FROM episodes WHERE id = ?", [SQLValue(episodes[0].id)])
        #expect(try library.bookmarks().map(\.note) == ["forgotten"])
    }

    /// `deleteFiles` forgets every episode of the feed: kept bookmarks let go of them all.
    @Test func unsubscribingWithFilesDeletedAndKeepBookmarksKeepsThemAll() throws {
        let library = try makeLibrary()
        let (feed, episodes) = try subscribe(library, episodes: 1)
        try library.prepareDirectory(for: episodes[0])
        try library.addBookmark(to: episodes[0], positionMilliseconds: 4_000, chapter: nil, note: nil)
        try library.unsubscribe(feed, deleteFiles: true, keepBookmarks: true)
        #expect(try library.episodes().isEmpty)
        let kept = try #require(try library.bookmarks().first)
        #expect(kept.episodeID == nil && kept.episodeTitle == "Episode 1" && kept.feedTitle == "Show")
    }
}
