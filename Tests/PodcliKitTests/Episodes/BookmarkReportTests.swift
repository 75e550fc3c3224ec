import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// How a bookmark is listed: the time `play --from` takes, and the command that plays from it,
/// by the episode's number or, once an unsubscribe forgot the episode, by its audio URL.
@Suite struct BookmarkReportTests {
    @Test func aBookmarkPlaysFromItsEpisodesNumberOrOnceForgottenFromItsURL() throws {
        let home = try TemporaryDirectory(prefix: "podcli-bookmarks")
        let library = try Library(directory: home.path)
        let url = "https://cdn.example.com/it's here.mp3"
        let feed = try library.subscribe(
            url: "https://example.com/feed.xml", metadata: FeedMetadata(title: "Show"),
            episodes: [EpisodeMetadata(title: "Tone", sourceURL: url, mediaKey: "cdn.example.com/it's here.mp3")],
            etag: nil, lastModified: nil, protection: .private
        ).0
        let episode = try #require(try library.episodes().first)
        let made = BookmarkReport(
            try library.addBookmark(to: episode, positionMilliseconds: 3_661_900, chapter: "Two", note: "here"))
        #expect(made.from == "1:01:01" && made.position == 3_661.9)
        #expect(made.command == "podcli play \(episode.id) --from 1:01:01")
        #expect(made.line == "\(made.id)  #\(episode.id) Show — Tone at 1:01:01 (Two): here")

        try library.unsubscribe(feed, deleteFiles: false, keepBookmarks: true)
        let kept = BookmarkReport(try #require(try library.bookmarks().first))
        #expect(kept.episodeID == nil)
        #expect(kept.command == #"podcli play 'https://cdn.example.com/it'\''s here.mp3' --from 1:01:01"#)
        #expect(kept.line == "\(made.id)  Show — Tone at 1:01:01 (Two): here")
    }
}
