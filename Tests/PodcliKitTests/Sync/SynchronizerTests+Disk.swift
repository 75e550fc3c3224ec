import Downloads
import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// What the disk allows a sync: the budget, the free-space floor, a full disk (a real tmpfs that
/// fills), and the caps that stop a stream that never ends.
extension SynchronizerTests {
    @Test func theDiskBudgetGoesToTheNewest() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...4, size: 30_000))
        let sync = try s.sync("download = all\ndisk-budget = 70K\n")
        #expect(sync.report.failures.isEmpty && sync.report.skipped == 2)
        #expect(try s.t.downloaded() == ["alpha 4", "alpha 3"])
        #expect(try s.downloads("alpha", 2).isEmpty && s.downloads("alpha", 1).isEmpty)
    }

    @Test func aBudgetIsKeptEvenWhenTheFeedUnderstatesTheSize() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 90_000, announcedLength: 1))
        let sync = try s.sync("download = all\ndisk-budget = 50K\n")
        #expect(sync.report.failures.count == 1)
        #expect(sync.told.failures.first?.contains("is larger than the 51200 bytes allowed") == true, "\(sync.told)")
        #expect(try s.t.downloaded().isEmpty)
        #expect(try s.t.files(of: s.t.episode("alpha 1")).isEmpty)
    }

    @Test func nothingIsDownloadedBelowTheFreeSpaceFloorAndTheDiskIsBlamedOnce() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...2))
        let sync = try s.sync("min-free = 100000T\n")
        let newest = try s.id("alpha 2")
        #expect(sync.report.unwritten.map(\.subject) == ["#\(newest) alpha 2"])
        #expect(sync.report.failures.count == 1)
        let failure = try #require(sync.report.failures.first)
        #expect(failure.subject == "#\(newest) alpha 2")
        #expect(failure.message.hasPrefix("not downloaded: only "))
        #expect(
            failure.message.hasSuffix(
                " of the disk is free, and min-free keeps 100000.0 TiB free; free some space or lower min-free"))
        guard case PodcliError.outOfSpace = failure.cause else {
            Issue.record("the cause is \(failure.cause), not the disk")
            return
        }
        #expect(sync.report.summary.hasSuffix(", 1 not downloaded for want of disk space"))
        #expect(try s.downloads("alpha", 2).isEmpty)
        // No backoff: the episode is not to blame.
        #expect(try s.t.episode("alpha 2").state == .new)
    }

    @Test(.requires(SmallDisk.isAvailable, "needs root to mount a tmpfs"))
    func aFullDiskIsTheMachinesFailureNotTheEpisodesAndTheFloorStopsADownloadAsItStarts() throws {
        let s = try SyncShelf()
        // The episodes live on a disk of their own, 1 MiB; the database on the usual one.
        var disk: SmallDisk? = try SmallDisk(at: s.library.episodesDirectory, kibibytes: 1024)
        try s.subscribe(try s.serve("alpha", episodes: 1...3, size: 200_000))
        try disk?.fill(leaving: 100_000)

        // Again and again: one failure, about the disk, and no episode put into backoff.
        for _ in 1...4 {
            let full = try s.sync("download = all\n")
            #expect(full.report.unwritten.count == 3 && full.report.downloaded.isEmpty)
            #expect(full.told.failures.count == 1, "\(full.told.failures)")
            let line = try #require(full.told.failures.first)
            #expect(line.hasPrefix("3 episodes: not downloaded: could not write "), "\(line)")
            #expect(line.hasSuffix(": No space left on device"), "\(line)")
            #expect(full.report.summary.hasSuffix(", 3 not downloaded for want of disk space"))
            #expect(full.report.waiting == 0)
        }
        for n in 1...3 {
            let episode = try s.t.episode("alpha \(n)")
            #expect(episode.state != .failed)
            #expect(try s.library.episodeStatuses().first { $0.id == episode.id }?.retryAt == nil)
        }

        // Space comes back: the next run downloads everything.
        disk?.empty()
        let freed = try s.sync("download = all\n")
        #expect(freed.report.failures.isEmpty)
        #expect(try s.t.downloaded() == ["alpha 3", "alpha 2", "alpha 1"])
        #expect(try s.t.partialFiles().isEmpty)

        // About 420 KiB are free now: a 200 KB download would leave less than min-free's 300K.
        try s.serve("alpha", episodes: 1...4, size: 200_000)
        for _ in 1...3 {
            let floor = try s.sync("download = all\nmin-free = 300K\n")
            let line = try #require(floor.told.failures.first)
            #expect(line.hasPrefix("#\(try s.id("alpha 4")) alpha 4: not downloaded: only "), "\(line)")
            #expect(line.contains(" of the disk is free, and min-free keeps 300.0 KiB free"), "\(line)")
            #expect(try s.downloads("alpha", 4).isEmpty)
        }
        #expect(try s.sync("download = all\n").report.downloaded.map(\.title) == ["alpha 4"])
        disk = nil  // unmounted before the library's directory is removed
    }

    @Test func aStreamThatNeverEndsIsCutOffBySizeAndByTime() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 300_000, announcedLength: 0))
        let bySize = try s.sync("stream-max-size = 100K\n")
        #expect(
            bySize.told.failures.first?.contains("is larger than the 102400 bytes allowed") == true, "\(bySize.told)")

        #expect(try s.t.files(of: s.t.episode("alpha 1")).isEmpty)

        // 600 kB at 50 kB/s: twelve seconds, were it not cut off after two.
        let t = try SyncShelf()
        try t.subscribe(try t.serve("beta", episodes: 1...1, size: 600_000, query: "?slow=50000"))
        let byTime = try t.sync("stream-max-time = 2s\n")
        let line = try #require(byTime.told.failures.first)
        #expect(line.contains("was still sending after 2 s, perhaps a live stream"), "\(line)")
        #expect(try t.t.files(of: t.t.episode("beta 1")).isEmpty)
    }
}
