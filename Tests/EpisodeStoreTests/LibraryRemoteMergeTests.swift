import Feeds
import Foundation
import Testing

@testable import EpisodeStore

/// A sync server's episode actions merged into the library: the newest per episode wins against
/// the state here, matched by guid within its podcast, then by the enclosure URL without trackers.
@Suite struct LibraryRemoteMergeTests {
    let directory = TestDirectory()
    let clock = TestClock(1_700_000_000)
    let feedURL = "https://example.com/feed.xml"

    private func makeLibrary() throws -> Library {
        try Library(directory: directory.path + "/data", clock: clock.reading)
    }

    /// A feed at `url` of `count` episodes (`guid-N`, `https://cdn.example.com/N.mp3` behind
    /// `prefix`, 600 s long), its outbox sent; the episodes in order.
    @discardableResult
    private func subscribe(
        _ library: Library, url: String? = nil, episodes count: Int = 2, prefix: String = "https://", guids: Bool = true
    ) throws -> [Episode] {
        let items = (1...count).map { number in
            let enclosure = prefix + "cdn.example.com/\(number).mp3"
            var item = EpisodeMetadata(
                title: "E\(number)", sourceURL: enclosure, mediaKey: TrackingPrefix.strip(enclosure))
            item.guid = guids ? "guid-\(number)" : nil
            item.publishedAt = 1_600_000_000 + number
            item.durationMilliseconds = 600_000
            return item
        }
        let feed = try library.subscribe(
            url: url ?? feedURL, metadata: FeedMetadata(title: url ?? feedURL), episodes: items, etag: nil,
            lastModified: nil, protection: .private
        ).0
        try library.markSent(try library.outbox())
        return try library.episodes().filter { $0.feedID == feed.id }.sorted { $0.id < $1.id }
    }

    private func play(
        _ number: Int, at time: Int, position: Int, total: Int? = 600, podcast: String? = nil,
        url: String? = nil, guid: String?? = .none
    ) -> RemoteEpisodeAction {
        let enclosure = url ?? "https://cdn.example.com/\(number).mp3"
        return RemoteEpisodeAction(
            podcastURL: podcast ?? feedURL, episodeURL: enclosure, mediaKey: TrackingPrefix.strip(enclosure),
            guid: guid ?? "guid-\(number)", kind: .play, timestamp: time,
            play: PlaySpan(started: 0, position: position, total: total))
    }

    private func action(_ kind: RemoteEpisodeAction.Kind, _ number: Int, at time: Int) -> RemoteEpisodeAction {
        let enclosure = "https://cdn.example.com/\(number).mp3"
        return RemoteEpisodeAction(
            podcastURL: feedURL, episodeURL: enclosure, mediaKey: TrackingPrefix.strip(enclosure),
            guid: "guid-\(number)", kind: kind, timestamp: time)
    }

    private func state(_ library: Library, _ episode: Episode) throws -> PlaybackState {
        try library.playbackState(of: episode)
    }

    private func at(_ seconds: Int, played: Bool = false) -> PlaybackState {
        PlaybackState(positionMilliseconds: seconds * 1000, played: played)
    }

    /// Saved here at 1_700_000_100 at 50 s; the server's older and equal plays change nothing
    /// (an equal one is this library's own upload coming back), a newer one is where play resumes.
    @Test func aNewerPositionWinsAnOlderOrEqualOneNeverOverwrites() throws {
        let library = try makeLibrary()
        let episode = try subscribe(library)[0]
        clock.now = 1_700_000_100
        try library.savePlayback(at(50), of: episode, listened: ListeningTime())
        clock.now = 1_700_000_500
        var summary = try library.mergeRemoteEpisodeActions([
            play(1, at: 1_700_000_099, position: 300), play(1, at: 1_700_000_050, position: 200),
        ])
        #expect(try state(library, episode) == at(50))
        #expect(summary.notNewer == 1)
        summary = try library.mergeRemoteEpisodeActions([play(1, at: 1_700_000_100, position: 300)])
        #expect(try state(library, episode) == at(50) && summary.notNewer == 1)
        summary = try library.mergeRemoteEpisodeActions([play(1, at: 1_700_000_101, position: 300)])
        #expect(try state(library, episode) == at(300) && summary.positions == 1)
        // Taken at the server's time: a later change here is newer again, the same action merged
        // twice changes nothing.
        summary = try library.mergeRemoteEpisodeActions([play(1, at: 1_700_000_101, position: 400)])
        #expect(try state(library, episode) == at(300) && summary.notNewer == 1)
        #expect(try library.outbox().isEmpty, "nothing merged goes back up")
    }

    /// Of one episode's actions only the newest counts, wherever it is in the list.
    @Test func onlyTheNewestActionOfAnEpisodeIsMerged() throws {
        let library = try makeLibrary()
        let episodes = try subscribe(library)
        let summary = try library.mergeRemoteEpisodeActions([
            play(1, at: 1_700_000_300, position: 120), play(1, at: 1_700_000_200, position: 590),
            play(2, at: 1_700_000_200, position: 590), play(2, at: 1_700_000_300, position: 120),
        ])
        #expect(try state(library, episodes[0]) == at(120))
        #expect(try state(library, episodes[1]) == at(120))
        #expect(summary.positions == 2 && summary.played == 0)
    }

    /// Within 30 s of the end, or past it, is played (its position cleared, no longer new); 31 s
    /// before is a position.
    @Test func aPlayWithin30SecondsOfTheEndMarksPlayed() throws {
        let library = try makeLibrary()
        let episodes = try subscribe(library, episodes: 3)
        #expect(episodes[2].isNew)
        let summary = try library.mergeRemoteEpisodeActions([
            play(1, at: clock.now + 1, position: 569), play(2, at: clock.now + 1, position: 570),
            play(3, at: clock.now + 1, position: 700),
        ])
        #expect(try state(library, episodes[0]) == at(569))
        #expect(try state(library, episodes[1]) == at(0, played: true))
        #expect(try state(library, episodes[2]) == at(0, played: true))
        #expect(try library.episode(id: episodes[2].id)?.isNew == false)
        #expect(summary.played == 2 && summary.positions == 1)
    }

    /// `new` is unplayed at the start; download and delete are counted, and change nothing.
    @Test func newMarksUnplayedAndDownloadsAndDeletionsAreOnlyCounted() throws {
        let library = try makeLibrary()
        let episodes = try subscribe(library)
        try library.markPlayed(episodes[0])
        try library.savePlayback(at(90), of: episodes[1], listened: ListeningTime())
        try library.markSent(try library.outbox())
        let summary = try library.mergeRemoteEpisodeActions([
            action(.new, 1, at: clock.now + 5), action(.download, 2, at: clock.now + 5),
            action(.delete, 2, at: clock.now + 6),
        ])
        #expect(try state(library, episodes[0]) == .start)
        #expect(try state(library, episodes[1]) == at(90))
        #expect(summary.unplayed == 1 && summary.downloads == 1 && summary.deletions == 1)
        #expect(try library.outbox().isEmpty)
    }

    /// The same file behind any tracker, over http or https, is the same episode: a feed that
    /// lists it behind one prefix and an app that reports it behind another (or none).
    @Test(arguments: [
        "http://cdn.example.com/1.mp3",
        "https://dts.podtrac.com/redirect.mp3/cdn.example.com/1.mp3",
        "https://chtbl.com/track/A1B2/cdn.example.com/1.mp3",
        "https://chrt.fm/track/A1B2/cdn.example.com/1.mp3",
        "https://pdst.fm/e/cdn.example.com/1.mp3",
        "https://pfx.vpixl.com/abc/cdn.example.com/1.mp3",
        "https://op3.dev/e,pg=9b024349-ccf0-5f69-a609-6b82873eab3c/cdn.example.com/1.mp3",
        "https://arttrk.com/p/ABCD/cdn.example.com/1.mp3",
        "https://mgln.ai/e/12/cdn.example.com/1.mp3",
        "https://pscrb.fm/rss/p/cdn.example.com/1.mp3",
        "https://verifi.podscribe.com/rss/p/cdn.example.com/1.mp3",
        "https://claritaspod.com/measure/cdn.example.com/1.mp3",
        "https://op3.dev/e/dts.podtrac.com/redirect.mp3/cdn.example.com/1.mp3",
    ])
    func anEnclosureBehindTrackingPrefixesIsMatched(remoteURL: String) throws {
        let library = try makeLibrary()
        let episode = try subscribe(library, prefix: "https://op3.dev/e/chrt.fm/track/X9/", guids: false)[0]
        let summary = try library.mergeRemoteEpisodeActions([
            play(1, at: clock.now + 1, position: 42, url: remoteURL, guid: .some(nil))
        ])
        #expect(summary.positions == 1 && summary.unmatched == 0)
        #expect(try state(library, episode) == at(42))
    }

    /// Guids are not unique across feeds: within the podcast named, else only when one episode
    /// has it; an unknown enclosure of no matching guid is not matched.
    @Test func aGuidIsMatchedWithinItsPodcast() throws {
        let library = try makeLibrary()
        let other = "https://other.example.net/rss"
        let mine = try subscribe(library)
        let theirs = try subscribe(library, url: other, prefix: "https://other.example.net/media/")
        var summary = try library.mergeRemoteEpisodeActions([
            play(1, at: clock.now + 1, position: 30, podcast: other, url: "https://elsewhere.example/x.mp3")
        ])
        #expect(summary.positions == 1)
        #expect(try state(library, theirs[0]) == at(30) && state(library, mine[0]) == .start)
        // A podcast not subscribed: guid-2 names two episodes, so neither; an unknown URL is no match.
        summary = try library.mergeRemoteEpisodeActions([
            play(
                2, at: clock.now + 2, position: 40, podcast: "https://gone.example/feed", url: "https://x.example/2.mp3"
            )
        ])
        #expect(summary.unmatched == 1)
        #expect(try state(library, theirs[1]) == .start && state(library, mine[1]) == .start)
        // ... but its enclosure, found once, is.
        summary = try library.mergeRemoteEpisodeActions([
            play(2, at: clock.now + 2, position: 40, podcast: "https://gone.example/feed")
        ])
        #expect(try state(library, mine[1]) == at(40) && state(library, theirs[1]) == .start)
    }

    /// The server strips a feed URL's `user:pass@`: its podcast URL is the feed fetched with them.
    @Test func aFeedWithCredentialsIsThePodcastWithout() throws {
        let library = try makeLibrary()
        let other = try subscribe(library, url: "https://other.example/feed.xml")
        let episodes = try subscribe(library, url: "https://anna:s3cret@example.com/feed.xml")
        let summary = try library.mergeRemoteEpisodeActions([play(1, at: clock.now + 1, position: 77)])
        #expect(summary.positions == 1)
        #expect(try state(library, episodes[0]) == at(77) && state(library, other[0]) == .start)
    }

    /// An outbox entry older than the action merged never goes up (Nextcloud would keep it over
    /// the newer one); a newer one stays, and a local change newer than the action wins.
    @Test func outboxEntriesOlderThanTheMergedActionAreDropped() throws {
        let library = try makeLibrary()
        let episodes = try subscribe(library, episodes: 3)
        for (episode, position) in [(episodes[0], 10), (episodes[1], 20), (episodes[2], 30)] {
            clock.now += 10
            try library.savePlayback(
                at(position), of: episode, listened: ListeningTime(),
                play: PlaySpan(started: 0, position: position, total: 600))
        }
        // 1 and 2 were saved at +10 and +20; 3 at +30.
        let summary = try library.mergeRemoteEpisodeActions([
            play(1, at: 1_700_000_015, position: 100), play(2, at: 1_700_000_015, position: 200),
            action(.new, 3, at: 1_700_000_031),
        ])
        #expect(try state(library, episodes[0]) == at(100))
        #expect(try state(library, episodes[1]) == at(20))
        #expect(try state(library, episodes[2]) == .start)
        #expect(summary.outboxDropped == 2 && summary.notNewer == 1)
        #expect(try library.outbox().map(\.episodeURL) == ["https://cdn.example.com/2.mp3"])
    }

    /// The merge reads the library once: 20,000 actions of 20,000 episodes go in one pass (the
    /// figure is printed; `bench/` holds the timing of a whole exchange).
    @Test func twentyThousandActionsAreMergedInOnePass() throws {
        let library = try makeLibrary()
        let count = 20_000
        try subscribe(library, episodes: count)
        let actions = (1...count).map { play($0, at: clock.now + 1, position: $0 % 500) }
        let started = Date()
        let summary = try library.mergeRemoteEpisodeActions(actions)
        print("merged \(count) actions in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        #expect(summary.positions == count && summary.unmatched == 0)
        let resumed = try library.database.rows("SELECT count(*) FROM playback_state WHERE position_ms > 0")
        #expect(resumed[0].int(0) == Int64(count - count / 500))
    }
}
