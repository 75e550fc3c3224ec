import Downloads
import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// What `podcli play [ID|URL]` plays, in order.
@Suite struct PlaylistTests {
    /// Three episodes of their own URLs, the last two queued.
    static func library() throws -> (TestLibrary, [Episode]) {
        let t = try TestLibrary()
        let episodes = try (1...3).map { try EpisodeFetcherTests.episode(t.url("ep\($0).mp3"), in: t) }
        _ = try t.library.enqueue(Array(episodes.dropFirst()))
        return (t, episodes)
    }

    @Test func nothingNamedIsTheQueueAndAnEmptyQueueIsSaidSo() throws {
        let (t, episodes) = try Self.library()
        let queue = try Playlist(nil, library: t.library, protection: .private)
        #expect(queue.episodes.map(\.id) == episodes.dropFirst().map(\.id))
        #expect(queue.madeHere == nil)

        let empty = try TestLibrary()
        #expect {
            try Playlist(nil, library: empty.library, protection: .private)
        } throws: { error in
            guard case PodcliError.emptyQueue = error else { return false }
            return true
        }
    }

    /// The episode named comes first, then the queue without it: by number or by its URL.
    @Test func theEpisodeNamedComesFirstThenTheRestOfTheQueue() throws {
        let (t, episodes) = try Self.library()
        for reference in ["\(episodes[2].id)", episodes[2].sourceURL] {
            let playlist = try Playlist(reference, library: t.library, protection: .private)
            #expect(playlist.episodes.map(\.id) == [episodes[2].id, episodes[1].id], "\(reference)")
            #expect(playlist.madeHere == nil, "an episode podcli knows is not made again")
        }
        let first = try Playlist("\(episodes[0].id)", library: t.library, protection: .private)
        #expect(first.episodes.map(\.id) == episodes.map(\.id))
    }

    /// A URL podcli does not know becomes an episode of its own, which the session may forget.
    @Test func aNewURLMakesAnEpisodeTheSessionMayForget() throws {
        let (t, episodes) = try Self.library()
        let playlist = try Playlist(t.url("talk.mp3"), library: t.library, protection: .open)
        let made = try #require(playlist.madeHere)
        #expect(made.title == "talk" && made.protection == .open)
        #expect(playlist.episodes.map(\.id) == [made.id] + episodes.dropFirst().map(\.id))
        #expect(throws: DownloadError.self) {
            try Playlist("ftp://example.com/a.mp3", library: t.library, protection: .open)
        }
        #expect(throws: StoreError.self) { try Playlist("999", library: t.library, protection: .open) }
    }
}
