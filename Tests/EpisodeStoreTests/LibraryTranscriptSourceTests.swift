import Foundation
import Testing

@testable import EpisodeStore

/// Which transcript offer a downloaded episode's transcript came from (schema 17), and the mark a
/// refresh leaves when the feed changes the episode's offers, which `sync` looks for.
@Suite struct LibraryTranscriptSourceTests {
    let directory = TestDirectory()

    private func item(_ number: Int, transcripts: String?) -> EpisodeMetadata {
        var item = EpisodeMetadata(
            title: "Episode \(number)", sourceURL: "https://cdn.example.com/\(number).mp3",
            mediaKey: "cdn.example.com/\(number).mp3")
        item.guid = "guid-\(number)"
        item.publishedAt = 1_700_000_000 + number * 86_400
        item.transcriptsJSON = transcripts
        return item
    }

    @Test func aRefreshThatChangesADownloadedEpisodesOffersMarksItAndNothingElse() throws {
        let library = try Library(directory: directory.path + "/data")
        let offer = #"[{"url":"https://example.com/1.txt","type":"text/plain"}]"#
        let (feed, _) = try library.subscribe(
            url: "https://example.com/feed", metadata: FeedMetadata(title: "Show"),
            episodes: (1...3).map { item($0, transcripts: offer) }, etag: nil, lastModified: nil, protection: .private)
        let episodes = try library.listing(EpisodeFilter()).sorted { $0.title < $1.title }.map(\.id)
        for id in episodes.prefix(2) {
            try library.setState(.downloaded, of: try #require(try library.episode(id: id)))
            try library.recordTranscriptSource(url: "https://example.com/1.txt", type: "text/plain", of: id)
        }
        #expect(
            try library.transcriptSource(of: episodes[0])
                == TranscriptSource(url: "https://example.com/1.txt", type: "text/plain"))
        #expect(try library.transcriptSource(of: episodes[2]) == nil)

        // The same offers again: no mark. Then #1 and #3 get another one: only #1 (downloaded, recorded) is marked.
        let refresh = { (changed: Set<Int>) throws in
            _ = try library.refresh(
                feed, url: feed.url, metadata: FeedMetadata(title: "Show"),
                episodes: (1...3).map {
                    item(
                        $0,
                        transcripts: changed.contains($0)
                            ? #"[{"url":"https://example.com/1.vtt","type":"text/vtt"}]"# : offer)
                }, etag: nil, lastModified: nil, protection: .private)
        }
        try refresh([])
        #expect(try library.episodesWithChangedTranscriptOffers().isEmpty)
        try refresh([1, 3])
        #expect(try library.episodesWithChangedTranscriptOffers() == [episodes[0]])
        #expect(try library.transcriptSource(of: episodes[0])?.offersChanged == true)

        // Recording what was fetched clears the mark; deleting the episode deletes its row.
        try library.recordTranscriptSource(url: "https://example.com/1.vtt", type: "text/vtt", of: episodes[0])
        #expect(try library.episodesWithChangedTranscriptOffers().isEmpty)
        try library.database.run("DELETE FROM episodes WHERE id = ?", [SQLValue(episodes[1])])
        #expect(
            try library.database.rows("SELECT 1 FROM transcript_sources WHERE episode_id = ?", [SQLValue(episodes[1])])
                .isEmpty)
    }
}
