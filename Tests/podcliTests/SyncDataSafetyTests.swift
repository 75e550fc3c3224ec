import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What `sync` must never lose, tried the way an unlucky cron job meets it: a replacement that
/// fails, runs killed at any moment, a disk that fills up. The built podcli, the loopback fault
/// server, a real SQLite file, and a real (tmpfs) file system that fills.
@Suite struct SyncDataSafetyTests {
    typealias Shelf = SyncCommandTests.Shelf

    @Test func keepNeverDeletesADownloadBeforeItsReplacementIsRecorded() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1))
        try s.config("keep = 1\n")
        #expect(try s.sync(["-q"]).status == 0)
        #expect(try s.downloaded() == ["alpha 1"])

        // A new episode whose enclosure is broken: the only one on disk stays, and stays listed.
        try s.serve("alpha", episodes: 1...2)
        try FileManager.default.removeItem(at: s.w.directory.appendingPathComponent("alpha-ep2.mp3"))
        for _ in 1...2 {
            let broken = try s.sync()
            #expect(broken.status == 69, "\(broken)")
            #expect(!broken.stdout.contains("Deleted"), "\(broken)")
            #expect(try s.downloaded() == ["alpha 1"])
            #expect(try s.episode("alpha 1")["status"] as? String != "deleted")
        }

        // Once the replacement is recorded, the older one goes, in the same run.
        try CLITestCase.audioBytes(30_000).write(to: s.w.directory.appendingPathComponent("alpha-ep2.mp3"))
        let fixed = try s.sync()
        #expect(fixed.status == 0, "\(fixed)")
        #expect(
            fixed.stdout.contains("Deleted #\(try s.id("alpha 1")) alpha 1: older than the newest 1 (keep)\n"),
            "\(fixed)")
        #expect(try s.downloaded() == ["alpha 2"])
    }

    @Test func syncsKilledAnywhereNeverTakeAFeedBelowWhatKeepAllows() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...3))
        try s.config("download = all\nkeep = 3\n")
        #expect(try s.sync(["-q"]).status == 0)
        #expect(try s.downloaded().count == 3)

        // Slow new episodes, and a sync killed -9 at a different moment each time.
        for round in 1...8 {
            try s.serve("alpha", episodes: 1...(3 + round), size: 120_000, query: "?slow=200000")
            let doomed = try s.t.podcli.start(["--home", s.t.home.path, "sync", "-q"])
            usleep(useconds_t(150_000 * round))
            doomed.kill(signal: SIGKILL)
            _ = try doomed.waitUntilExit()
            let count = try s.downloaded().count
            #expect(count >= 3, "round \(round): \(count) downloaded")
        }
        let finish = try s.sync(["-q"], timeout: 120)
        #expect(finish.status == 0, "\(finish)")
        #expect(try s.downloaded() == ["alpha 11", "alpha 10", "alpha 9"])
        let verify = try s.t.run(["verify"])
        #expect(verify.status == 0, "\(verify)")
    }

    @Test(.requires(SmallDisk.isAvailable, "needs root to mount a tmpfs"))
    func aFullDiskIsTheMachinesFailureNotTheEpisodes() throws {
        let s = Shelf()
        // The episodes live on a disk of their own, 1 MiB; the database on the usual one.
        let disk = try SmallDisk(at: s.t.home.path + "/episodes", kibibytes: 1024)
        try s.subscribe(try s.serve("alpha", episodes: 1...3, size: 200_000))
        try s.config("download = all\nmin-free = 0\n")
        try disk.fill(leaving: 100_000)

        // Cron, again and again, on a full disk: one line about the disk each time, exit 74,
        // and no episode put into backoff.
        for _ in 1...4 {
            let full = try s.sync(["-q"])
            #expect(full.status == 74, "\(full)")
            // The one failure's line is all (no "sync: 1 failure (see above)" after it).
            let lines = full.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(full)")
            #expect(lines.first?.hasPrefix("podcli: 3 episodes: not downloaded: could not write ") == true, "\(full)")
            #expect(lines.first?.hasSuffix(": No space left on device") == true, "\(full)")
            #expect(try s.downloaded().isEmpty)
        }
        #expect(try s.sync().stdout.contains("3 not downloaded for want of disk space"))
        #expect(try !s.sync().stdout.contains("backing off"))

        // Space comes back: the next run downloads everything, resuming what was begun.
        disk.empty()
        let freed = try s.sync()
        #expect(freed.status == 0, "\(freed)")
        #expect(try s.downloaded() == ["alpha 3", "alpha 2", "alpha 1"])
        #expect(try s.t.run(["verify"]).status == 0)

        // The free-space floor stops a download as it runs, and is no episode's failure either.
        try s.serve("alpha", episodes: 1...4, size: 200_000)
        try s.config("download = all\nmin-free = 300K\n")
        for _ in 1...3 {
            let floor = try s.sync(["-q"])
            #expect(floor.status == 74, "\(floor)")
            #expect(
                floor.stderr.hasPrefix("podcli: #\(try s.id("alpha 4")) alpha 4: not downloaded: "), "\(floor)")
            #expect(floor.stderr.contains(" of the disk is free, and min-free keeps 300.0 KiB free"), "\(floor)")
        }
        try s.config("download = all\nmin-free = 0\n")
        #expect(try s.sync(["-q"]).status == 0)
        #expect(try s.downloaded().first == "alpha 4")
    }
}
