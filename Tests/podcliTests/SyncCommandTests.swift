import Foundation
import TestSupport
import Testing

/// `podcli sync` end to end, as cron runs it: the built podcli, real libcurl against the loopback
/// fault server, a real SQLite file. Each test has its own library and its own feeds.
@Suite struct SyncCommandTests {
    typealias Item = FeedCommandTests.Item

    /// A library subscribed to shows whose episodes are real files on the test server.
    struct Shelf {
        let w = try! FeedCommandTests.World()
        var t: CLITestCase { w.t }

        /// Serves `show`'s feed listing `episodes` (newest last in the numbering) and returns its URL.
        /// Each enclosure is `<show>-ep<n>.mp3`, `size` bytes, with `query` appended to its URL.
        @discardableResult
        func serve(
            _ show: String, episodes: ClosedRange<Int>, size: Int = 30_000, query: String = "",
            announcedLength: Int? = nil
        ) throws -> String {
            var items: [Item] = []
            for n in episodes.reversed() {
                let name = "\(show)-ep\(n).mp3"
                let file = w.directory.appendingPathComponent(name)
                if !FileManager.default.fileExists(atPath: file.path) {
                    try CLITestCase.audioBytes(size).write(to: file)
                }
                var item = w.item(n, in: show)
                item.title = "\(show) \(n)"
                item.url = w.url(name) + query
                item.length = announcedLength ?? size
                item.published = Int(Date().timeIntervalSince1970) - (100 - n) * 3600
                items.append(item)
            }
            return try w.serve("\(show).xml", FeedCommandTests.rss(title: show, items: items))
        }

        func subscribe(_ url: String) throws {
            let fetch = try t.run(["fetch", url])
            guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        }

        func sync(_ arguments: [String] = [], timeout: TimeInterval = 60) throws -> ProcessResult {
            try t.run(["sync"] + arguments, timeout: timeout)
        }

        func config(_ text: String) throws { _ = try t.home.write(text, to: "config") }

        /// The episode titled `title` playing in real time (a PulseAudio null sink behind an ALSA
        /// tap), once `status` says so; stopped with the value.
        func playInRealTime(_ title: String) throws -> PacedPlayer {
            let playing = try PacedPlayer(t, episode: try id(title))
            guard try waitUntil(timeout: 10, { try t.run(["status", "--json"]).stdout.contains("\"playing\"") }) else {
                throw TestSupportError("\(title) did not start playing: \(playing.player.currentStderr)")
            }
            return playing
        }

        /// Titles of the episodes with a recorded file, newest first.
        func downloaded() throws -> [String] {
            try w.episodes(["--downloaded"]).compactMap { $0["title"] as? String }
        }

        func episode(_ title: String) throws -> [String: Any] {
            try #require(try w.episodes().first { $0["title"] as? String == title })
        }

        func id(_ title: String) throws -> String { "\(try episode(title)["id"] as! Int)" }

        /// GET requests for `show`'s episode `n`.
        func downloads(_ show: String, _ n: Int) throws -> [RequestRecord] {
            try w.requests("\(show)-ep\(n).mp3").filter { $0.method == "GET" }
        }
    }

    // MARK: - What is downloaded

    @Test func theNewestEpisodeIsDownloadedOnSubscriptionThenEveryNewOne() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...3))

        let first = try s.sync()
        #expect(first.status == 0, "\(first)")
        // Results, summary included, on stdout: `podcli sync > report` keeps them.
        #expect(
            first.stdout.hasPrefix(
                "Downloaded #\(try s.id("alpha 3")) alpha 3 (29.3 KiB)\n"
                    + "Synced 1 feed, 0 new, 1 downloaded (29.3 KiB), 0 deleted in "), "\(first)")
        #expect(first.stderr.isEmpty, "\(first)")
        #expect(try s.downloaded() == ["alpha 3"])

        try s.serve("alpha", episodes: 1...5)
        let second = try s.sync()
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.hasPrefix("#1 alpha: 2 new\n"), "\(second)")
        #expect(try s.downloaded() == ["alpha 5", "alpha 4", "alpha 3"])
        #expect(try s.downloads("alpha", 1).isEmpty && s.downloads("alpha", 2).isEmpty)

        // Nothing new: a conditional GET, nothing downloaded again.
        let third = try s.sync(["--quiet"])
        #expect(third.status == 0 && third.stdout.isEmpty && third.stderr.isEmpty, "\(third)")
        #expect(try s.w.requests("alpha.xml").last?.status == 304)
        for n in 3...5 { #expect(try s.downloads("alpha", n).count == 1) }
        let log = try String(contentsOfFile: s.t.home.path + "/sync.log", encoding: .utf8)
        #expect(log.split(separator: "\n").count == 3, "\(log)")
        #expect(log.contains(" sync: 1 feed, 2 new, 2 downloaded (58.6 KiB), 0 deleted in "), "\(log)")
    }

    @Test func perFeedSectionsOverrideTheGlobalPolicy() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...4))
        try s.subscribe(try s.serve("beta", episodes: 1...4))
        try s.config(
            """
            # everything unplayed, but only the newest two of each
            download = all
            keep = 2

            [feed "BETA"]
            download = none

            [feed "Gamma"]
            keep = 1
            """)
        let sync = try s.sync()
        #expect(sync.status == 0, "\(sync)")
        #expect(
            sync.stderr.hasPrefix(
                "\(s.t.home.path)/config:8: [feed \"Gamma\"] names no subscription (its title, URL or number)\n"),
            "\(sync)")
        #expect(try s.downloaded() == ["alpha 4", "alpha 3"])
        #expect(sync.stdout.contains("2 skipped by policy"), "\(sync)")
    }

    @Test func maxAgeAndMaxSizeLeaveEpisodesOut() throws {
        let s = Shelf()
        let url = try s.serve("alpha", episodes: 1...2, size: 30_000)
        try s.subscribe(url)
        try s.config("download = all\nmax-size = 20K\n")
        let tooLarge = try s.sync()
        #expect(tooLarge.status == 0 && !tooLarge.stdout.contains("Downloaded"), "\(tooLarge)")
        #expect(try s.downloaded().isEmpty)

        try s.config("download = all\nmax-age = 1\n")
        // Published 98 and 99 hours ago: older than a day.
        let tooOld = try s.sync()
        #expect(tooOld.status == 0 && !tooOld.stdout.contains("Downloaded"), "\(tooOld)")
        #expect(tooOld.stdout.contains("2 skipped by policy"), "\(tooOld)")
        try s.config("download = all\nmax-age = 5\n")
        #expect(try s.sync().status == 0)
        #expect(try s.downloaded() == ["alpha 2", "alpha 1"])
    }

    // MARK: - Failures

    /// `unsubscribe` from another shell while `sync` or `refresh` reads the feed (its server sends
    /// the body slowly): the feed is gone, and nothing failed.
    @Test func aFeedUnsubscribedWhileSyncOrRefreshReadsItIsNoFailure() throws {
        for command in ["sync", "refresh"] {
            let w = try FeedCommandTests.World()
            let url = try w.serve("slow.xml", FeedCommandTests.rss(title: "Slow", items: [w.item(1)]))
            #expect(try w.t.run(["fetch", url + "?slow=4000"]).status == 0)
            // 12 KB at 4 KB/s: the refresh takes three seconds.
            var item = w.item(2)
            item.description = String(repeating: "words ", count: 2_000)
            try w.serve("slow.xml", FeedCommandTests.rss(title: "Slow", items: [item, w.item(1)]))

            let running = try w.t.podcli.start(["--home", w.t.home.path, command])
            let fetching = try waitUntil(timeout: 20) {
                try w.requests("slow.xml").filter { $0.method == "GET" }.count == 2
            }
            #expect(fetching, "\(command) never asked for the feed")
            let unsubscribe = try w.t.run(["unsubscribe", "1"])
            #expect(unsubscribe.status == 0, "\(unsubscribe)")
            let result = try running.waitUntilExit()
            #expect(result.status == 0, "\(command): \(result)")
            #expect(result.stderr.isEmpty, "\(command): \(result)")
            #expect(try w.feeds().isEmpty)
        }
    }

    @Test func aFailingFeedOrDownloadNeverStopsTheOthersAndIsRecorded() throws {
        let s = Shelf()
        let alpha = try s.serve("alpha", episodes: 1...1)
        let beta = try s.serve("beta", episodes: 1...1)
        let gamma = try s.serve("gamma", episodes: 1...1)
        for url in [alpha, beta, gamma] { try s.subscribe(url) }
        try FileManager.default.removeItem(at: s.w.directory.appendingPathComponent("beta.xml"))
        try FileManager.default.removeItem(at: s.w.directory.appendingPathComponent("gamma-ep1.mp3"))

        let sync = try s.sync(["--quiet"])
        #expect(sync.status == 69, "\(sync)")
        #expect(sync.stdout.isEmpty)
        let lines = sync.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(sync)")
        #expect(lines.contains { $0.hasPrefix("podcli: #2 beta: server answered 404 Not Found for ") }, "\(sync)")
        #expect(lines.contains { $0.hasPrefix("podcli: #3 gamma 1: server answered 404 Not Found for ") }, "\(sync)")
        #expect(lines.last == "podcli: sync: 2 failures (see above)")
        // beta's known episode is fetched although its feed failed.
        #expect(Set(try s.downloaded()) == ["alpha 1", "beta 1"])

        let feeds = try s.w.feeds()
        #expect((feeds.first { $0["title"] as? String == "beta" }?["last_error"] as? String)?.contains("404") == true)
        let gammaEpisode = try s.episode("gamma 1")
        #expect(gammaEpisode["state"] as? String == "failed")
        #expect((gammaEpisode["last_error"] as? String)?.contains("404 Not Found") == true, "\(gammaEpisode)")
        #expect(try s.t.run(["list", "gamma"]).stdout.contains("(download failed: server answered 404"))
        let log = try String(contentsOfFile: s.t.home.path + "/sync.log", encoding: .utf8)
        #expect(log.contains("  failed: #2 beta: server answered 404"), "\(log)")
    }

    @Test func aFeedThatKeepsFailingIsLeftAloneForAWhile() throws {
        let s = Shelf()
        let url = try s.serve("alpha", episodes: 1...1)
        try s.subscribe(url)
        try FileManager.default.removeItem(at: s.w.directory.appendingPathComponent("alpha.xml"))
        for _ in 1...3 { #expect(try s.sync(["--quiet"]).status == 69) }
        // A 404 is not retried within a run: one request a run.
        #expect(try s.w.requests("alpha.xml").filter { $0.method == "GET" }.count == 1 + 3)

        let fourth = try s.sync()
        #expect(fourth.status == 0, "\(fourth)")
        #expect(fourth.stdout.contains("0 feeds, 0 new, 0 downloaded, 0 deleted, 1 feed backing off"), "\(fourth)")
        #expect(try s.w.requests("alpha.xml").filter { $0.method == "GET" }.count == 1 + 3)
        let feed = try #require(try s.w.feeds().first)
        #expect(feed["failures"] as? Int == 3)
        #expect((feed["retry_at"] as? Int ?? 0) > Int(Date().timeIntervalSince1970) + 3000)
        #expect(try s.t.run(["feeds"]).stdout.contains("(sync skips it until "))
        // `refresh` asks anyway; a success ends the backoff.
        try s.serve("alpha", episodes: 1...2)
        #expect(try s.t.run(["refresh"]).status == 0)
        #expect(try s.w.feeds().first?["retry_at"] == nil || s.w.feeds().first?["retry_at"] is NSNull)
        #expect(try s.sync().status == 0)
        #expect(try s.downloaded() == ["alpha 2", "alpha 1"])
    }

    @Test func feedsFromOneHostAreFetchedOneAtATimeUnlessConfiguredOtherwise() throws {
        let s = Shelf()
        // Slow bodies (about a second each), never 304: every sync reads both in full.
        for show in ["alpha", "beta"] { try s.subscribe(try s.serve(show, episodes: 1...1) + "?slow=1000&nocache=1") }
        func feedRequests() throws -> [RequestRecord] {
            try s.t.server.stats(pathPrefix: s.w.path("")).filter { $0.path.contains(".xml") }.suffix(2)
        }
        func overlap(_ requests: [RequestRecord]) -> Bool {
            requests[0].started < requests[1].finished! && requests[1].started < requests[0].finished!
        }
        #expect(try s.sync(["-q", "--jobs", "4"]).status == 0)
        #expect(try !overlap(feedRequests()))
        try s.config("host-connections = 2\n")
        #expect(try s.sync(["-q", "--jobs", "4"]).status == 0)
        #expect(try overlap(feedRequests()))
    }

    @Test func aBrokenEnclosureIsLeftAloneAfterRepeatedFailures() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1))
        try FileManager.default.removeItem(at: s.w.directory.appendingPathComponent("alpha-ep1.mp3"))
        for _ in 1...3 { #expect(try s.sync(["-q"]).status == 69) }
        let fourth = try s.sync()
        #expect(fourth.status == 0, "\(fourth)")
        #expect(fourth.stdout.contains("1 download backing off"), "\(fourth)")
        #expect(try s.downloads("alpha", 1).count == 3)
        #expect(try s.episode("alpha 1")["state"] as? String == "failed")
        // By hand it is tried at once, and a success ends the wait.
        try CLITestCase.audioBytes(30_000).write(to: s.w.directory.appendingPathComponent("alpha-ep1.mp3"))
        #expect(try s.t.run(["fetch", try s.episode("alpha 1")["url"] as! String]).status == 0)
        #expect(try s.downloaded() == ["alpha 1"])
    }

    // MARK: - Safe under cron

    @Test func aSecondSyncExitsBusyWhileTheFirstRunsOrWaitsWithWait() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 60_000, query: "?slow=20000"))
        let first = try s.t.podcli.start(["--home", s.t.home.path, "sync"])
        // The first holds the lock once its download has begun.
        #expect(try waitUntil(timeout: 20) { try !s.downloads("alpha", 1).isEmpty })

        let second = try s.sync()
        #expect(second.status == 75, "\(second)")
        #expect(second.stdout.isEmpty)
        #expect(second.stderr.hasPrefix("podcli: another podcli sync is running (pid \(first.pid)); --wait waits"))
        #expect(second.stderr.split(separator: "\n").count == 1)
        // Other commands go on meanwhile.
        let list = try s.t.run(["list"])
        #expect(list.status == 0 && list.stdout.contains("alpha 1"), "\(list)")

        let waiting = try s.sync(["--wait", "--quiet"])
        #expect(waiting.status == 0, "\(waiting)")
        #expect(try first.waitUntilExit().status == 0)
        #expect(try s.downloaded() == ["alpha 1"])
        #expect(try s.downloads("alpha", 1).count == 1)
    }

    @Test func aSyncKilledMidwayIsFinishedByTheNextRunWithoutDownloadingAnythingTwice() throws {
        let s = Shelf()
        let size = 900_000
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: size, query: "?slow=300000"))
        try s.subscribe(try s.serve("beta", episodes: 1...1, size: size, query: "?slow=300000"))
        let doomed = try s.t.podcli.start(["--home", s.t.home.path, "sync", "--jobs", "2"])
        // Killed once both partial files hold some of their bytes on disk.
        var partials: [String: Int] = [:]
        #expect(
            waitUntil(timeout: 20) {
                partials = s.partialFiles()
                return partials.count == 2 && partials.values.allSatisfy { $0 > 0 }
            })
        doomed.kill()
        _ = try doomed.waitUntilExit()
        partials = s.partialFiles()
        #expect(try s.downloaded().isEmpty)
        #expect(try s.w.episodes().allSatisfy { $0["state"] as? String == "downloading" })

        let rerun = try s.sync()
        #expect(rerun.status == 0, "\(rerun)")
        #expect(Set(try s.downloaded()) == ["alpha 1", "beta 1"])
        #expect(s.partialFiles().isEmpty)
        for show in ["alpha", "beta"] {
            let gets = try s.downloads(show, 1)
            #expect(gets.count == 2, "\(gets)")
            // The rerun asked only for what was not on disk.
            let onDisk = partials.first { $0.key.contains(show) }?.value ?? -1
            #expect(gets.last?.range == "bytes=\(onDisk)-", "\(gets) \(partials)")
        }
        let verify = try s.t.run(["verify"])
        #expect(verify.status == 0, "\(verify)")
        // And the next run has nothing left to do.
        #expect(try s.sync(["-q"]).status == 0)
        #expect(try s.downloads("alpha", 1).count == 2)
    }

    @Test func aTerminalGetsAProgressLineAndCronDoesNot() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 200_000, query: "?slow=100000"))
        let terminal = try TerminalSession(
            executable: s.t.podcli.executableURL, arguments: ["--home", s.t.home.path, "sync"],
            environment: s.t.podcli.childEnvironment())
        #expect(terminal.waitForOutput(containing: "Downloading 1 of 1: "))
        #expect(try terminal.waitUntilExit() == 0)
        // The line is cleared before the results are printed over it.
        #expect(terminal.output.contains("\r\u{1B}[2KDownloaded #"), "\(terminal.output)")
        #expect(terminal.output.contains("Synced 1 feed, 0 new, 1 downloaded"))

        try s.serve("alpha", episodes: 1...2, size: 200_000, query: "?slow=100000")
        let piped = try s.sync()
        #expect(piped.status == 0 && !piped.stderr.contains("Downloading"), "\(piped)")
        #expect(!piped.stderr.contains("\u{1B}"))
    }

    @Test func quietPrintsNothingWhenAllIsWell() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...2))
        let sync = try s.sync(["-q"])
        #expect(sync.status == 0 && sync.stdout.isEmpty && sync.stderr.isEmpty, "\(sync)")
        #expect(try s.downloaded() == ["alpha 2"])
    }

    @Test func theLogStaysBounded() throws {
        let s = Shelf()
        let old = String(repeating: "an old line of an old sync\n", count: 12_000)
        _ = try s.t.home.write(old, to: "sync.log")
        #expect(try s.sync(["-q"]).status == 0)
        let rotated = try String(contentsOfFile: s.t.home.path + "/sync.log.1", encoding: .utf8)
        #expect(rotated == old)
        let log = try String(contentsOfFile: s.t.home.path + "/sync.log", encoding: .utf8)
        #expect(log.split(separator: "\n").count == 1 && log.contains(" sync: 0 feeds"), "\(log)")
    }

    // MARK: - Retention

    @Test func retentionDeletesWhatPolicySaysButNeverKeptOrQueuedEpisodes() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...5))
        try s.config("download = all\n")
        #expect(try s.sync(["-q"]).status == 0)
        #expect(try s.downloaded().count == 5)

        #expect(try s.t.run(["keep", try s.id("alpha 1")]).status == 0)
        #expect(try s.t.run(["queue", "add", try s.id("alpha 2")]).status == 0)
        try s.config("download = all\nkeep = 2\n")
        let sync = try s.sync()
        #expect(sync.status == 0, "\(sync)")
        #expect(
            sync.stdout.hasPrefix("Deleted #\(try s.id("alpha 3")) alpha 3: older than the newest 2 (keep)\nSynced "),
            "\(sync)")
        #expect(try s.downloaded() == ["alpha 5", "alpha 4", "alpha 2", "alpha 1"])
        #expect(try s.episode("alpha 3")["status"] as? String == "deleted")
        #expect(try s.episode("alpha 1")["kept"] as? Bool == true)

        // Deleted episodes are not downloaded again, even with download = all.
        #expect(try s.sync(["-q"]).status == 0)
        #expect(try s.downloads("alpha", 3).count == 1)

        // Unkept and unqueued, they go too.
        #expect(try s.t.run(["unkeep", try s.id("alpha 1")]).status == 0)
        #expect(try s.t.run(["queue", "clear"]).status == 0)
        #expect(try s.sync(["-q"]).status == 0)
        #expect(try s.downloaded() == ["alpha 5", "alpha 4"])
    }

    @Test(
        .requires(
            PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/sox")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/lame"),
            "needs pulseaudio, libasound2-plugins, sox and lame"))
    func retentionLeavesTheEpisodeBeingPlayedAlone() throws {
        let s = Shelf()
        // Episode 1 is real audio, long enough to be playing all along, played in real time.
        try Self.tone(seconds: 60).write(to: s.w.directory.appendingPathComponent("alpha-ep1.mp3"))
        try s.subscribe(try s.serve("alpha", episodes: 1...3))
        try s.config("download = all\n")
        #expect(try s.sync(["-q"]).status == 0)
        let playing = try s.playInRealTime("alpha 1")
        #expect(try s.t.run(["pause"]).status == 0)

        try s.config("download = all\nkeep = 1\n")
        let sync = try s.sync()
        #expect(sync.status == 0, "\(sync)")
        #expect(
            sync.stdout.hasPrefix("Deleted #\(try s.id("alpha 2")) alpha 2: older than the newest 1 (keep)\nSynced "),
            "\(sync)")
        #expect(try s.downloaded() == ["alpha 3", "alpha 1"])

        #expect(try s.t.run(["stop"]).status == 0)
        #expect(try playing.player.waitUntilExit(timeout: 10).status == 0)
        let after = try s.sync()
        #expect(
            after.stdout.hasPrefix("Deleted #\(try s.id("alpha 1")) alpha 1: older than the newest 1 (keep)\nSynced "),
            "\(after)")
        #expect(try s.downloaded() == ["alpha 3"])
    }

    @Test func playedEpisodesAreDeletedAfterTheirDaysAndRemovedOnesStayGone() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...3))
        try s.config("download = all\n")
        #expect(try s.sync(["-q"]).status == 0)
        try s.markPlayed(try s.id("alpha 1"), daysAgo: 10)
        try s.markPlayed(try s.id("alpha 2"), daysAgo: 1)
        try s.config("download = all\ndelete-played-after = 7\n")
        let sync = try s.sync()
        #expect(
            sync.stdout.hasPrefix("Deleted #\(try s.id("alpha 1")) alpha 1: played more than 7 days ago\nSynced "),
            "\(sync)")

        // `podcli rm` of an episode the feed lists: the feed does not bring it back.
        #expect(try s.t.run(["rm", try s.id("alpha 3")]).status == 0)
        try s.serve("alpha", episodes: 1...3)
        #expect(try s.t.run(["refresh"]).status == 0)
        #expect(try s.sync(["-q"]).status == 0)
        #expect(try s.downloaded() == ["alpha 2"])
        #expect(try s.downloads("alpha", 3).count == 1)
        // Fetching it by hand brings it back.
        #expect(try s.t.run(["fetch", try s.episode("alpha 3")["url"] as! String]).status == 0)
        #expect(try s.downloaded() == ["alpha 3", "alpha 2"])
    }

    // MARK: - Disk

    @Test func theDiskBudgetKeepsTheNewest() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...4, size: 30_000))
        try s.config("download = all\ndisk-budget = 70K\n")
        let sync = try s.sync()
        #expect(sync.status == 0, "\(sync)")
        #expect(try s.downloaded() == ["alpha 4", "alpha 3"])
        #expect(sync.stdout.contains("2 skipped by policy"), "\(sync)")
    }

    @Test func aBudgetIsKeptEvenWhenTheFeedUnderstatesTheSize() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 90_000, announcedLength: 1))
        try s.config("download = all\ndisk-budget = 50K\n")
        let sync = try s.sync()
        #expect(sync.status == 65, "\(sync)")
        #expect(sync.stderr.contains("is larger than the 51200 bytes allowed"), "\(sync)")
        #expect(try s.downloaded().isEmpty)
        #expect(s.w.episodeDirectories().allSatisfy { s.t.episodeFiles($0).isEmpty })
    }

    @Test func nothingIsDownloadedBelowTheFreeSpaceFloor() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...2))
        try s.config("min-free = 100000T\n")
        let sync = try s.sync()
        #expect(sync.status == 74, "\(sync)")
        #expect(sync.stderr.contains("podcli: #\(try s.id("alpha 2")) alpha 2: not downloaded: only "), "\(sync)")
        #expect(
            sync.stderr.contains(
                " of the disk is free, and min-free keeps 100000.0 TiB free; free some space or lower min-free\n"),
            "\(sync)")
        #expect(try s.downloaded().isEmpty)
        #expect(try s.downloads("alpha", 2).isEmpty)
    }

    @Test func aStreamThatNeverEndsIsCutOffBySizeAndByTime() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 300_000, announcedLength: 0))
        try s.config("stream-max-size = 100K\n")
        let bySize = try s.sync()
        #expect(bySize.status == 65, "\(bySize)")
        #expect(bySize.stderr.contains("is larger than the 102400 bytes allowed"), "\(bySize)")

        let t = Shelf()
        try t.subscribe(try t.serve("beta", episodes: 1...1, size: 600_000, query: "?slow=50000"))
        try t.config("stream-max-time = 2s\n")
        let byTime = try t.sync()
        #expect(byTime.status == 65, "\(byTime)")
        #expect(byTime.stderr.contains("was still sending after 2 s, perhaps a live stream"), "\(byTime)")
        #expect(t.w.episodeDirectories().allSatisfy { t.t.episodeFiles($0).isEmpty })
    }

    @Test func limitRateSlowsAllDownloadsTogether() throws {
        let s = Shelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 200_000))
        try s.subscribe(try s.serve("beta", episodes: 1...1, size: 200_000))
        let started = Date()
        let sync = try s.sync(["--limit-rate", "200K", "--jobs", "2", "-q"])
        #expect(sync.status == 0, "\(sync)")
        // 400 kB at 200 KiB/s, less the quarter second of credit a start may take.
        #expect(Date().timeIntervalSince(started) > 1.5)
        #expect(try s.downloaded().count == 2)
        let bad = try s.sync(["--limit-rate", "fast"])
        #expect(bad.status == 64, "\(bad)")
    }
}

extension SyncCommandTests {
    /// A stereo 44.1 kHz sine of `seconds`, as a 64 kbit/s MP3 made by sox and lame.
    static func tone(seconds: Int) throws -> Data {
        let directory = try TemporaryDirectory(prefix: "podcli-tone")
        let wav = directory.path + "/tone.wav"
        let mp3 = directory.path + "/tone.mp3"
        for (tool, arguments) in [
            ("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "\(seconds)", "sine", "440"]),
            ("/usr/bin/lame", ["--quiet", "-b", "64", wav, mp3]),
        ] {
            let result = try RunningProcess(
                executable: URL(fileURLWithPath: tool), arguments: arguments, environment: [:]
            )
            .waitUntilExit()
            guard result.status == 0 else { throw TestSupportError("\(tool) failed: \(result)") }
        }
        return try Data(contentsOf: URL(fileURLWithPath: mp3))
    }
}

extension SyncCommandTests.Shelf {
    /// The `.part` files in the library and their sizes, by path (the file name is the episode's).
    func partialFiles() -> [String: Int] {
        let root = t.home.path + "/episodes"
        var sizes: [String: Int] = [:]
        for uuid in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + uuid)) ?? []
            where name.hasSuffix(".part") {
                let path = root + "/" + uuid + "/" + name
                sizes[path] = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0
            }
        }
        return sizes
    }

    /// Marks an episode played `daysAgo` days ago, as a finished `play` would have.
    func markPlayed(_ id: String, daysAgo: Int) throws {
        let database = t.home.path + "/podcli.db"
        let seconds = Int(Date().timeIntervalSince1970) - daysAgo * 86_400
        let sql = """
            INSERT INTO playback_state (episode_id, position_ms, played, updated_at) VALUES (\(id), 0, 1, \(seconds))
            ON CONFLICT (episode_id) DO UPDATE SET played = 1, updated_at = \(seconds);
            UPDATE episodes SET is_new = 0 WHERE id = \(id);
            """
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [database, sql], environment: [:]
        ).waitUntilExit()
        guard result.status == 0 else { throw TestSupportError("sqlite3 failed: \(result)") }
    }
}

/// A `podcli play` of one episode in real time, with the sound server it plays on.
final class PacedPlayer {
    let devices: TemporaryDirectory
    let pulse: PulseAudioServer
    let capture: ALSACapture
    let player: RunningProcess

    init(_ t: CLITestCase, episode id: String) throws {
        devices = try TemporaryDirectory(prefix: "podcli-paced")
        pulse = try PulseAudioServer()
        capture = try ALSACapture(directory: devices.url, pulseAudio: pulse)
        player = try RunningProcess(
            executable: t.podcli.executableURL,
            arguments: ["--home", t.home.path, "play", id, "--device", ALSACapture.pacedDeviceName],
            environment: t.podcli.childEnvironment(capture.environment))
    }

    deinit {
        player.kill()
        pulse.stop()
    }
}
