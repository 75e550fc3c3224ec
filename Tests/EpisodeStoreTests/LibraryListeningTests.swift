import Foundation
import Testing

@testable import EpisodeStore

/// The listening log (schema 13): what each position save adds, per episode and local day, and
/// what `podcli stats` adds up from it.
@Suite struct LibraryListeningTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    private func subscribe(_ library: Library, _ title: String, episodes: Int) throws -> (Feed, [Episode]) {
        let items = (1...episodes).map { number in
            var item = EpisodeMetadata(
                title: "\(title) \(number)", sourceURL: "https://cdn.example.com/\(title)/\(number).mp3",
                mediaKey: "cdn.example.com/\(title)/\(number).mp3")
            item.publishedAt = 1_700_000_000 + number * 86_400
            return item
        }
        let feed = try library.subscribe(
            url: "https://example.com/\(title).xml", metadata: FeedMetadata(title: title), episodes: items, etag: nil,
            lastModified: nil, protection: .private
        ).0
        let all = try library.episodes().filter { $0.feedID == feed.id }
        return (feed, all)
    }

    /// Noon, local time, of `day` (YYYY-MM-DD).
    private func noon(_ day: String) -> Int {
        let parts = day.split(separator: "-").map { Int32($0)! }
        var fields = tm()
        fields.tm_year = parts[0] - 1900
        fields.tm_mon = parts[1] - 1
        fields.tm_mday = parts[2]
        fields.tm_hour = 12
        fields.tm_isdst = -1
        return Int(mktime(&fields))
    }

    private func state(_ seconds: Int) -> PlaybackState {
        PlaybackState(positionMilliseconds: seconds * 1000, played: false)
    }

    /// Saves of one day add up in the episode's row of that day; another day is a row of its own,
    /// and `since` counts from its day on. The silence skipped also goes to the episode, as before.
    @Test func savesAddUpPerEpisodeAndDayAndSinceCountsFromItsDay() throws {
        let clock = TestClock(noon("2026-11-30"))
        let library = try Library(directory: directory.path + "/data", clock: clock.reading)
        let (feed, episodes) = try subscribe(library, "Daily", episodes: 2)
        let first = ListeningTime(media: 10_000, wall: 5_000, silenceSkipped: 2_000)
        try library.savePlayback(state(10), of: episodes[0], listened: first)
        clock.now += 60
        try library.savePlayback(state(20), of: episodes[0], listened: first)
        let last = ListeningTime(media: 4_000, wall: 4_000, introOutroSkipped: 30_000, finished: 1)
        clock.now = noon("2026-12-02")
        try library.savePlayback(state(24), of: episodes[0], listened: last)
        try library.savePlayback(state(3), of: episodes[1], listened: ListeningTime(media: 3_000, wall: 3_000))

        let rows = try library.database.rows("SELECT day, media_ms FROM listening_log ORDER BY id")
        #expect(
            rows.map { "\($0.string(0)!) \($0.int(1)!)" } == ["2026-11-30 20000", "2026-12-02 4000", "2026-12-02 3000"])
        let all = try library.listening()
        #expect(
            all == [
                FeedListening(
                    feedID: feed.id, title: "Daily",
                    time: ListeningTime(
                        media: 27_000, wall: 17_000, silenceSkipped: 4_000, introOutroSkipped: 30_000, finished: 1),
                    episodes: 2)
            ])
        #expect(all[0].time.savedBySpeed == 27_000 - 4_000 - 17_000)
        #expect(
            try library.listening(since: "2026-12-01").map(\.time) == [
                ListeningTime(media: 7_000, wall: 7_000, introOutroSkipped: 30_000, finished: 1)
            ])
        #expect(try library.listening(since: "2026-12-03").isEmpty)
        #expect(try library.silenceSkipped(in: episodes[0]) == 4_000)
        #expect(try library.playbackState(of: episodes[0]) == state(24))
    }

    /// Each feed apart, `feedID` one only; an episode of no feed comes last, with no title.
    @Test func theLogIsPerFeedAndOneFeedCanBeAsked() throws {
        let library = try makeLibrary()
        let (news, newsEpisodes) = try subscribe(library, "News", episodes: 1)
        let (arts, artsEpisodes) = try subscribe(library, "arts", episodes: 1)
        let loose = try library.createEpisode(title: "Loose", sourceURL: "http://x/e.mp3", protection: .private)
        for (episode, seconds) in [(newsEpisodes[0], 5), (artsEpisodes[0], 7), (loose, 9)] {
            try library.savePlayback(
                state(seconds), of: episode, listened: ListeningTime(media: seconds * 1000, wall: seconds * 1000))
        }
        let all = try library.listening()
        #expect(all.map(\.title) == ["arts", "News", nil])
        #expect(all.map(\.feedID) == [arts.id, news.id, nil])
        #expect(try library.listening(feedID: news.id).map(\.time.media) == [5_000])
    }

    /// Deleting an episode, or the feed, keeps the time listened: under the feed's title, and
    /// apart from a new episode that is given the deleted one's number.
    @Test func deletingTheEpisodeOrTheFeedKeepsTheStatistics() throws {
        let library = try makeLibrary()
        let (feed, episodes) = try subscribe(library, "Gone", episodes: 1)
        try library.savePlayback(
            state(5), of: episodes[0], listened: ListeningTime(media: 5_000, wall: 5_000, finished: 1))
        try library.unsubscribe(feed, deleteFiles: false)
        #expect(try library.episode(id: episodes[0].id) == nil)
        let reused = try library.createEpisode(title: "New", sourceURL: "http://x/new.mp3", protection: .private)
        #expect(reused.id == episodes[0].id)
        try library.savePlayback(state(2), of: reused, listened: ListeningTime(media: 2_000, wall: 2_000))
        let all = try library.listening()
        #expect(all.map(\.title) == ["Gone", nil])
        #expect(all.map(\.time.media) == [5_000, 2_000])
        #expect(all.map(\.time.finished) == [1, 0])
        #expect(try library.database.rows("SELECT count(*) FROM listening_log WHERE episode_id IS NULL")[0].int(0) == 1)
    }

    /// A library made before the log has no statistics of its earlier plays: it starts at zero,
    /// from the day it was upgraded. A save with nothing played adds no row.
    @Test func anUpgradedLibraryStartsAtZeroFromTheDayOfTheUpgrade() throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        let database = try Database(path: directory.path + "/data/podcli.db")
        let migrator = Migrator()
        let logVersion = try #require(migrator.migrations.first { $0.name.hasSuffix("_listening_log.sql") }?.version)
        try migrator.migrate(database, upTo: logVersion - 1)
        try database.execute(
            """
            INSERT INTO episodes (id, uuid, title, source_url, state, protection, created_at, sort_date)
            VALUES (1, x'00112233445566778899aabbccddeeff', 'Old', 'http://x/old.mp3', 'new', 'private', 0, 0);
            INSERT INTO playback_state (episode_id, position_ms, played, updated_at) VALUES (1, 60000, 1, 0);
            """)
        let before = Int(Date().timeIntervalSince1970)
        let library = try makeLibrary()
        let after = Int(Date().timeIntervalSince1970)
        #expect(try library.listening().isEmpty)
        #expect((before...after).contains(try library.listeningLogStart()))
        try library.savePlayback(state(61), of: try #require(try library.episode(id: 1)), listened: ListeningTime())
        #expect(try library.database.rows("SELECT count(*) FROM listening_log")[0].int(0) == 0)
    }
}
