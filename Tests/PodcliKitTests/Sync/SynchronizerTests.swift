import Downloads
import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// `Synchronizer` in-process: a temporary library, real libcurl against the loopback fault server,
/// a real SQLite file, a fixed clock and a reporter that records what it is told. What is
/// downloaded here; retention, failures and the disk in the extensions beside this file.
@Suite struct SynchronizerTests {
    // MARK: - What is downloaded

    @Test func theNewestEpisodeIsDownloadedOnSubscriptionThenEveryNewOneAndNothingTwice() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...3))

        let first = try s.sync()
        let newest = try s.id("alpha 3")
        #expect(first.report.downloaded.map(\.title) == ["alpha 3"])
        #expect(first.report.summary == "1 feed, 0 new, 1 downloaded (29.3 KiB), 0 deleted")
        #expect(first.told.results == ["Downloaded #\(newest) alpha 3 (29.3 KiB)"])
        #expect(first.told.failures.isEmpty && first.told.notes.isEmpty && first.report.failures.isEmpty)
        // The reporter hears the downloads begin, progress, end, and the sync finish, once each.
        #expect(first.told.downloadsBegun == [1] && first.told.ended == [newest] && first.told.finished == 1)
        #expect(first.told.progress[newest, default: 0] > 0)
        #expect(try s.t.downloaded() == ["alpha 3"])
        #expect(
            try s.t.recordedBytes(of: s.t.episode("alpha 3"))
                == Data(contentsOf: s.t.served.appendingPathComponent("alpha-ep3.mp3")))

        try s.serve("alpha", episodes: 1...5)
        let second = try s.sync()
        #expect(second.told.results.first == "#1 alpha: 2 new")
        #expect(second.report.newEpisodes == 2)
        #expect(try s.t.downloaded() == ["alpha 5", "alpha 4", "alpha 3"])
        #expect(try s.downloads("alpha", 1).isEmpty && s.downloads("alpha", 2).isEmpty)
        // What the desktop notification names: newest first, with the podcast.
        #expect(second.report.newestFirst.map(\.title) == ["alpha 5", "alpha 4"])
        #expect(second.report.newestFirst.allSatisfy { $0.podcast == "alpha" })

        // Nothing new: a conditional GET answered 304, nothing downloaded again.
        let third = try s.sync()
        #expect(third.report.downloaded.isEmpty && third.told.results.isEmpty && third.told.downloadsBegun == [0])
        #expect(try s.t.gets("alpha.xml").last?.status == 304)
        for n in 3...5 { #expect(try s.downloads("alpha", n).count == 1) }
    }

    @Test func downloadAllTakesEveryUnplayedEpisodeAndNoneTakesNothing() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...3))
        try s.markPlayed("alpha 2", daysAgo: 0)

        let none = try s.sync("download = none\n")
        #expect(none.report.downloaded.isEmpty && none.report.skipped == 0)
        for n in 1...3 { #expect(try s.downloads("alpha", n).isEmpty) }

        let all = try s.sync("download = all\n")
        #expect(all.report.failures.isEmpty)
        #expect(try s.t.downloaded() == ["alpha 3", "alpha 1"])
        #expect(try s.downloads("alpha", 2).isEmpty)
    }

    @Test func perFeedSectionsOverrideTheGlobalPolicyAndASectionNamingNoFeedIsNoted() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...4))
        try s.subscribe(try s.serve("beta", episodes: 1...4))
        let sync = try s.sync(
            """
            # everything unplayed, but only the newest two of each
            download = all
            keep = 2

            [feed "BETA"]
            download = none

            [feed "Gamma"]
            keep = 1

            [feed "a"]
            keep = 1
            """)
        let path = s.t.home.path + "/config"
        // Line 1 is the `min-free = 0` the shelf puts first.
        #expect(
            sync.told.notes == [
                "\(path):9: [feed \"Gamma\"] names no subscription (its title, URL or number)",
                "\(path):12: [feed \"a\"] names 2 subscriptions; give more of the title, or the feed's number",
            ])
        #expect(try s.t.downloaded() == ["alpha 4", "alpha 3"])
        #expect(sync.report.skipped == 2)
        for n in 1...4 { #expect(try s.downloads("beta", n).isEmpty) }
    }

    @Test func maxAgeByTheSynchronizersClockAndMaxSizeLeaveEpisodesOut() throws {
        let s = try SyncShelf()
        // A month ahead of the wall clock: only the synchronizer's clock makes these old.
        s.clock.advance(by: 30 * 86_400)
        try s.subscribe(try s.serve("alpha", episodes: 1...2, size: 30_000))

        let tooLarge = try s.sync("download = all\nmax-size = 20K\n")
        #expect(tooLarge.report.downloaded.isEmpty && tooLarge.report.skipped == 2)
        // Published 98 and 99 hours before the clock: older than four days.
        let tooOld = try s.sync("download = all\nmax-age = 4\n")
        #expect(tooOld.report.downloaded.isEmpty && tooOld.report.skipped == 2)
        #expect(tooOld.report.summary.contains("2 skipped by policy"))
        #expect(try s.downloads("alpha", 1).isEmpty && s.downloads("alpha", 2).isEmpty)

        let young = try s.sync("download = all\nmax-age = 5\n")
        #expect(young.report.skipped == 0)
        #expect(try s.t.downloaded() == ["alpha 2", "alpha 1"])
    }

    @Test func feedsFromOneHostAreRefreshedOneAtATimeUnlessConfiguredOtherwise() throws {
        let s = try SyncShelf()
        // Bodies paced to about two seconds each, never 304: every sync reads both in full.
        for show in ["alpha", "beta"] {
            let url = try s.serve(show, episodes: 1...1)
            let bytes = try Data(contentsOf: s.t.served.appendingPathComponent("\(show).xml")).count
            try s.subscribe(url + "?slow=\(bytes / 2)&nocache=1")
        }
        func lastTwoFeedRequests() throws -> [RequestRecord] {
            try s.t.server.stats(pathPrefix: s.t.path("")).filter { $0.path.contains(".xml") }.suffix(2)
        }
        func overlap(_ requests: [RequestRecord]) -> Bool {
            requests[0].started < requests[1].finished! && requests[1].started < requests[0].finished!
        }
        var config = SyncShelf.noFloor
        config.sync.jobs = 4
        #expect(try s.sync(config).report.feedsChecked == 2)
        #expect(try !overlap(lastTwoFeedRequests()))
        config.sync.hostConnections = 2
        #expect(try s.sync(config).report.feedsChecked == 2)
        #expect(try overlap(lastTwoFeedRequests()))
    }

    @Test func limitRateSlowsAllDownloadsTogether() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 200_000))
        try s.subscribe(try s.serve("beta", episodes: 1...1, size: 200_000))
        let started = Date()
        let sync = try s.sync("limit-rate = 200K\njobs = 2\n")
        // 400 kB at 200 KiB/s, less the quarter second of credit a start may take: a lower bound,
        // which a busy machine only makes longer.
        #expect(Date().timeIntervalSince(started) > 1.5)
        #expect(sync.report.downloaded.count == 2 && sync.report.failures.isEmpty)
    }
}
