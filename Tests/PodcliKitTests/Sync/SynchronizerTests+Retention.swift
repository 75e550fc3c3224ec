import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// What a sync deletes: `keep` counts downloads only, played episodes go after their days by the
/// synchronizer's clock, and kept, queued or playing episodes are never deleted.
extension SynchronizerTests {
    @Test func keepDeletesTheOlderDownloadsButNeverKeptOrQueuedOnesAndDeletedOnesStayGone() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...5))
        #expect(try s.sync("download = all\n").report.downloaded.count == 5)
        try s.library.setKept(true, of: s.t.episode("alpha 1"))
        _ = try s.library.enqueue([s.t.episode("alpha 2")])

        let sync = try s.sync("download = all\nkeep = 2\n")
        #expect(sync.told.results == ["Deleted #\(try s.id("alpha 3")) alpha 3: older than the newest 2 (keep)"])
        #expect(sync.report.deleted == 1 && sync.report.deletedBytes == 30_000)
        #expect(try s.t.downloaded() == ["alpha 5", "alpha 4", "alpha 2", "alpha 1"])
        // The record stays, marked removed; its directory holds nothing.
        #expect(try s.t.episode("alpha 3").removedAt != nil)
        #expect(try s.t.files(of: s.t.episode("alpha 3")).isEmpty)

        // Deleted episodes are not downloaded again, even with download = all.
        #expect(try s.sync("download = all\n").report.downloaded.isEmpty)
        #expect(try s.downloads("alpha", 3).count == 1)

        // Unkept and unqueued, they go too.
        try s.library.setKept(false, of: s.t.episode("alpha 1"))
        _ = try s.library.clearQueue()
        let after = try s.sync("download = all\nkeep = 2\n")
        #expect(after.report.deleted == 2)
        #expect(try s.t.downloaded() == ["alpha 5", "alpha 4"])
    }

    /// Killed syncs leave partial files of more episodes than `keep` wants: a run finishes only
    /// those it keeps (and a queued one) and deletes the other partials, never downloading a file
    /// to delete it.
    @Test func partialDownloadsPastKeepAreDeletedNotFinished() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...6))
        for n in 1...6 {
            let episode = try s.t.episode("alpha \(n)")
            let name = "alpha-ep\(n).mp3"
            let whole = try Data(contentsOf: s.t.served.appendingPathComponent(name))
            let directory = try s.library.prepareDirectory(for: episode)
            try whole.prefix(10_000).write(to: URL(fileURLWithPath: directory + "/" + name + ".part"))
            try s.library.setState(.downloading, of: episode)
        }
        _ = try s.library.enqueue([s.t.episode("alpha 2")])

        let sync = try s.sync("download = all\nkeep = 2\n")
        #expect(sync.report.failures.isEmpty)
        #expect(Set(sync.report.downloaded.map(\.title)) == ["alpha 6", "alpha 5", "alpha 2"])
        #expect(try s.t.downloaded() == ["alpha 6", "alpha 5", "alpha 2"])
        for n in [1, 3, 4] {
            #expect(try s.downloads("alpha", n).isEmpty, "alpha \(n) was downloaded")
            #expect(try s.t.episode("alpha \(n)").removedAt != nil)
            let line = "Deleted #\(try s.id("alpha \(n)")) alpha \(n): older than the newest 2 (keep)"
            #expect(sync.told.results.contains(line))
        }
        #expect(sync.report.deleted == 3)
        #expect(try s.t.partialFiles().isEmpty)
        // Nothing is left to do: the deleted ones are not downloaded again.
        #expect(try s.sync("download = all\nkeep = 2\n").report.downloaded.isEmpty)
    }

    /// A partial download past `keep` is a download like another: the newer episode failing or
    /// waiting out its backoff never costs it its place (it was deleted and marked removed in
    /// step 1, leaving the feed with nothing).
    @Test func aPartialDownloadPastKeepIsFinishedWhenTheNewerOneCannotCome() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...2))
        let older = try s.t.episode("alpha 1")
        let whole = try Data(contentsOf: s.t.served.appendingPathComponent("alpha-ep1.mp3"))
        let directory = try s.library.prepareDirectory(for: older)
        try whole.prefix(whole.count * 9 / 10).write(to: URL(fileURLWithPath: directory + "/alpha-ep1.mp3.part"))
        try s.library.setState(.downloading, of: older)
        let newest = try Data(contentsOf: s.t.served.appendingPathComponent("alpha-ep2.mp3"))
        try s.t.withdraw("alpha-ep2.mp3")

        // The newer one fails: the partial stays for a later run.
        for _ in 1...3 {
            let failing = try s.sync("download = all\nkeep = 1\n")
            #expect(failing.report.failures.count == 1 && failing.report.deleted == 0)
            #expect(try s.t.episode("alpha 1").removedAt == nil)
            #expect(try s.t.partialFiles().count == 1)
        }
        // The newer one backs off: the partial is finished in its place.
        let waiting = try s.sync("download = all\nkeep = 1\n")
        #expect(waiting.report.waiting == 1 && waiting.report.downloaded.map(\.title) == ["alpha 1"])
        #expect(try s.t.downloaded() == ["alpha 1"])

        // Once the newer one is recorded, the older one goes, as any download past keep.
        try s.t.serve("alpha-ep2.mp3", newest)
        let retryAt = try #require(try s.library.episodeStatuses().compactMap(\.retryAt).first)
        s.clock.advance(by: retryAt - s.clock.now + 1)
        let fixed = try s.sync("download = all\nkeep = 1\n")
        #expect(fixed.report.downloaded.map(\.title) == ["alpha 2"] && fixed.report.deleted == 1)
        #expect(try s.t.downloaded() == ["alpha 2"])
    }

    @Test func keepNeverDeletesADownloadBeforeItsReplacementIsRecorded() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1))
        #expect(try s.sync("keep = 1\n").report.downloaded.count == 1)

        // A new episode whose enclosure is broken: the only one on disk stays.
        try s.serve("alpha", episodes: 1...2)
        let replacement = try Data(contentsOf: s.t.served.appendingPathComponent("alpha-ep2.mp3"))
        try s.t.withdraw("alpha-ep2.mp3")
        for _ in 1...2 {
            let broken = try s.sync("keep = 1\n")
            #expect(broken.report.failures.count == 1 && broken.report.deleted == 0)
            #expect(!broken.told.results.contains { $0.hasPrefix("Deleted") })
            #expect(try s.t.downloaded() == ["alpha 1"])
        }

        // Once the replacement is recorded, the older one goes, in the same run.
        try s.t.serve("alpha-ep2.mp3", replacement)
        let fixed = try s.sync("keep = 1\n")
        #expect(fixed.report.failures.isEmpty)
        #expect(fixed.told.results.last == "Deleted #\(try s.id("alpha 1")) alpha 1: older than the newest 1 (keep)")
        #expect(try s.t.downloaded() == ["alpha 2"])
    }

    @Test func playedEpisodesAreDeletedOnceTheirDaysHavePassedOnTheSynchronizersClock() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...3))
        #expect(try s.sync("download = all\n").report.downloaded.count == 3)
        try s.markPlayed("alpha 1", daysAgo: 10)
        try s.markPlayed("alpha 2", daysAgo: 1)

        let sync = try s.sync("download = all\ndelete-played-after = 7\n")
        #expect(sync.told.results == ["Deleted #\(try s.id("alpha 1")) alpha 1: played more than 7 days ago"])
        #expect(try s.t.downloaded() == ["alpha 3", "alpha 2"])

        // A week later by the clock, the second one's time has come.
        s.clock.advance(by: 7 * 86_400)
        let later = try s.sync("download = all\ndelete-played-after = 7\n")
        #expect(later.told.results == ["Deleted #\(try s.id("alpha 2")) alpha 2: played more than 7 days ago"])
        #expect(try s.t.downloaded() == ["alpha 3"])
        // Played, they are not downloaded again either.
        #expect(try s.downloads("alpha", 1).count == 1 && s.downloads("alpha", 2).count == 1)
    }

    @Test func retentionLeavesTheEpisodeBeingPlayedAlone() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...3))
        #expect(try s.sync("download = all\n").report.downloaded.count == 3)

        // A player's claim, as `play` takes it for the episode it plays.
        var hold = PlaybackHold.shared(try s.t.episode("alpha 1"), in: s.library)
        #expect(hold != nil)
        let sync = try s.sync("download = all\nkeep = 1\n")
        #expect(sync.told.results == ["Deleted #\(try s.id("alpha 2")) alpha 2: older than the newest 1 (keep)"])
        #expect(sync.report.failures.isEmpty)
        #expect(try s.t.downloaded() == ["alpha 3", "alpha 1"])

        hold = nil
        let after = try s.sync("download = all\nkeep = 1\n")
        #expect(after.told.results == ["Deleted #\(try s.id("alpha 1")) alpha 1: older than the newest 1 (keep)"])
        #expect(try s.t.downloaded() == ["alpha 3"])
        withExtendedLifetime(hold) {}
    }
}
