import Downloads
import EpisodeStore
import Foundation
import PodcliKit
import TestSupport

/// A library subscribed to shows whose episodes are files on the test server, synced in-process
/// with a fixed clock and a recording reporter.
struct SyncShelf {
    let t: TestLibrary
    /// Starts at the real time (the library stamps failures and plays with it), and moves only
    /// when a test moves it.
    let clock = TestClock(Int(Date().timeIntervalSince1970))
    var library: Library { t.library }

    init() throws { t = try TestLibrary() }

    /// Serves `show`'s feed listing `episodes` (the highest number the newest, an hour apart) and
    /// returns its URL. Each enclosure is `<show>-ep<n>.mp3` of `size` bytes (written once), with
    /// `query` appended to its URL, announced as `announcedLength` (default: its size).
    @discardableResult
    func serve(
        _ show: String, episodes: ClosedRange<Int>, size: Int = 30_000, query: String = "", announcedLength: Int? = nil
    ) throws -> String {
        var items: [RSS.Item] = []
        for n in episodes.reversed() {
            let name = "\(show)-ep\(n).mp3"
            if !FileManager.default.fileExists(atPath: t.served.appendingPathComponent(name).path) {
                try t.serve(name, AudioBytes.make(size, seed: UInt64(n * 7919 + show.utf8.count)))
            }
            items.append(
                RSS.Item(
                    title: "\(show) \(n)", guid: "\(show)-\(n)", published: clock.now - (100 - n) * 3600,
                    url: t.url(name) + query, length: announcedLength ?? size))
        }
        return try t.serve("\(show).xml", RSS(title: show, items: items).text)
    }

    /// Subscribes as `fetch FEED_URL` does.
    @discardableResult
    func subscribe(_ url: String) throws -> Feed {
        let updater = FeedUpdater(
            library: library, fetcher: FeedFetcher(policy: TestLibrary.policy(attempts: 3)), protection: .private)
        guard case .subscribed(let feed, _) = try updater.subscribe(url: url) else {
            throw TestSupportError("\(url) was not a new subscription")
        }
        return feed
    }

    /// Writes the configuration file and reads it, as every command does.
    func configure(_ text: String) throws -> Config {
        try t.home.write(text, to: "config")
        return try Config(path: t.home.path + "/config")
    }

    /// One sync, with `config` (default: the defaults, but no free-space floor).
    func sync(_ config: Config? = nil) throws -> (report: SyncReport, told: RecordingReporter.Record) {
        let reporter = RecordingReporter()
        let synchronizer = Synchronizer(
            libraryDirectory: t.directory, config: config ?? Self.noFloor, downloadPolicy: TestLibrary.policy(),
            feedPolicy: TestLibrary.policy(attempts: 3), reporter: reporter, clock: { [clock] in clock.now })
        let report = try synchronizer.run(library)
        return (report, reporter.told)
    }

    /// A configuration file's text read as the defaults are, less the free-space floor (the
    /// machine's disk is not the test's).
    func sync(_ text: String) throws -> (report: SyncReport, told: RecordingReporter.Record) {
        try sync(try configure("min-free = 0\n" + text))
    }

    static var noFloor: Config {
        var config = Config()
        config.sync.minFree = 0
        return config
    }

    func id(_ title: String) throws -> Int { try t.episode(title).id }

    /// GET requests for `show`'s episode `n`.
    func downloads(_ show: String, _ n: Int) throws -> [RequestRecord] { try t.gets("\(show)-ep\(n).mp3") }

    /// Marks an episode played `daysAgo` days before the clock, as a finished `play` would have.
    func markPlayed(_ title: String, daysAgo: Int) throws {
        let episode = try t.episode(title)
        try library.markPlayed(episode)
        try library.database.run(
            "UPDATE playback_state SET updated_at = ? WHERE episode_id = ?",
            [.integer(Int64(clock.now - daysAgo * 86_400)), .integer(Int64(episode.id))])
    }
}
