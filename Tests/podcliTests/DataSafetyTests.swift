import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What `fetch`, `verify --repair`, `unsubscribe` and `play` must never lose or overwrite, tried
/// as a hostile server and two commands at once would: the built podcli, the loopback fault
/// server (its `disposition=`, `slow=` and 404s), a real SQLite file.
@Suite struct DataSafetyTests {
    /// The episodes `list --json` shows.
    static func episodes(_ t: CLITestCase) throws -> [[String: Any]] {
        let list = try t.run(["list", "--json"])
        guard list.status == 0 else { throw TestSupportError("list failed: \(list)") }
        return try JSONSerialization.jsonObject(with: list.stdoutData) as! [[String: Any]]
    }

    // MARK: - Names podcli keeps beside the audio

    @Test func aServersFileNameNeverTakesTheNameOfPodclisOwnFiles() throws {
        let t = try CLITestCase()
        for (asked, given) in [("artwork.jpg", "audio-artwork.jpg"), (".artwork.jpg", "audio-artwork.jpg")] {
            let (url, data) = try t.source("ep.mp3")
            let fetch = try t.run(["fetch", url + "?disposition=\(asked)", "--json"])
            #expect(fetch.status == 0, "\(fetch)")
            let shown = try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any]
            let path = try #require(shown["path"] as? String)
            #expect(path.hasSuffix("/" + given), "\(path)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
        }
    }

    @Test func aRepairEndsWithTheServersBytesWhateverTheNameTheServerGave() throws {
        let t = try CLITestCase()
        let (url, data) = try t.source("x.mp3")
        // `x.part.part` once became `x.part`, which a repair then took for its own partial file.
        let fetch = try t.run(["fetch", url + "?disposition=x.part.part", "--json"])
        #expect(fetch.status == 0, "\(fetch)")
        let path = try #require(
            (try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any])["path"] as? String)
        #expect(path.hasSuffix("/x.mp3"), "\(path)")

        // The same size, other bytes: only the checksum can tell.
        var corrupt = data
        corrupt.replaceSubrange(1000..<2000, with: Data(repeating: 0, count: 1000))
        try corrupt.write(to: URL(fileURLWithPath: path))
        #expect(try t.run(["verify"]).status == 1)
        let repair = try t.run(["verify", "--repair"])
        #expect(repair.status == 0, "\(repair)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
        #expect(try t.run(["verify"]).status == 0)
    }

    // MARK: - Failed fetches leave nothing

    @Test func aFetchThatKeptNothingLeavesNoEpisodeAndNoDirectory() throws {
        let t = try CLITestCase()
        let missing = t.server.url("/files/no-such-episode.mp3")
        let notFound = try t.run(["fetch", missing])
        #expect(notFound.status == 69, "\(notFound)")
        let html = try t.source("page.mp3", data: Data("<html><body>Log in</body></html>".utf8)).url
        let page = try t.run(["fetch", html])
        #expect(page.status == 65, "\(page)")
        #expect(page.stderr.hasSuffix("; nothing was kept\n"), "\(page)")
        #expect(try Self.episodes(t).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: t.home.path + "/episodes").isEmpty)

        // A download cut short keeps its partial file, and its episode to resume it.
        let (long, _) = try t.source("long.mp3", size: 2_000_000)
        let cut = try t.run(["fetch", long + "?drop=300000&times=10"])
        #expect(cut.status == 69, "\(cut)")
        #expect(try Self.episodes(t).count == 1)
    }

    // MARK: - Removals killed half-way

    /// Runs `podcli arguments` under strace, which holds each `syscall` for 2 s once it is done,
    /// and kills podcli (strace's child: killing strace would let it go on) as soon as `reached`
    /// holds: somewhere in the middle of a removal.
    static func kill(
        _ t: CLITestCase, _ arguments: [String], holding syscall: String, once reached: () -> Bool
    ) throws {
        let strace = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/strace"),
            arguments: [
                "-f", "-o", "/dev/null", "-e", "trace=\(syscall)", "-e", "inject=\(syscall):delay_exit=2000000",
                t.podcli.executableURL.path, "--home", t.home.path,
            ] + arguments,
            environment: t.podcli.childEnvironment())
        let killed = waitUntil(timeout: 30, reached)
        let children = "/proc/\(strace.pid)/task/\(strace.pid)/children"
        for pid in ((try? String(contentsOfFile: children, encoding: .utf8)) ?? "").split(separator: " ") {
            if let pid = Int32(pid) { Glibc.kill(pid, SIGKILL) }
        }
        let traced = try strace.waitUntilExit()
        guard killed else { throw TestSupportError("podcli \(arguments) never got there: \(traced)") }
    }

    @Test(.requires(TestEnvironment.has("/usr/bin/strace"), "needs strace to hold a removal half-way"))
    func aRemovalKilledBeforeItsCommitLosesNoFileAndOneKilledAfterIsFinished() throws {
        let t = try CLITestCase()
        let (url, data) = try t.source("ep.mp3")
        let fetch = try t.run(["fetch", url, "--json"])
        #expect(fetch.status == 0, "\(fetch)")
        let path = try #require(
            (try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any])["path"] as? String)
        let episodes = t.home.path + "/episodes"
        let trash = episodes + "/.removed-" + URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent

        // Killed between the rename into the trash and the commit.
        try Self.kill(t, ["rm", "1"], holding: "rename") { FileManager.default.fileExists(atPath: trash) }
        // The next podcli puts the directory back: the episode is recorded, and its file is there.
        let kept = try Self.episodes(t)
        #expect(kept.map { $0["state"] as? String } == ["downloaded"], "\(kept)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
        let verify = try t.run(["verify"])
        #expect(verify.status == 0, "\(verify)")

        // Killed after the commit, deleting the trash: the next podcli finishes the removal.
        try Self.kill(t, ["rm", "1"], holding: "unlink") {
            FileManager.default.fileExists(atPath: trash)
                && !FileManager.default.fileExists(atPath: trash + "/" + URL(fileURLWithPath: path).lastPathComponent)
        }
        #expect(FileManager.default.fileExists(atPath: trash))
        #expect(try Self.episodes(t).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: episodes).isEmpty)
    }

    // MARK: - A full disk

    @Test(.requires(SmallDisk.isAvailable, "needs root to mount a tmpfs"))
    func aFullDiskUnderTheLibraryIsSaidInAUsersWords() throws {
        let t = try CLITestCase()
        let library = t.home.path + "/library"
        // Room for the library with 400 episodes while its transaction is in the WAL (an empty
        // library of schema 16 is 0.4 MB, the subscription adds 0.2 MB and its WAL 0.5 MB).
        let disk = try SmallDisk(at: library, kibibytes: 2048)
        #expect(try t.podcli.run(["--home", library, "feeds"]).status == 0)
        let items = (1...400).map { n in
            FeedCommandTests.Item(
                title: "Episode \(n) " + String(repeating: "x", count: 200), guid: "g\(n)",
                published: FeedCommandTests.Item.day(n), url: "https://media.example.com/ep\(n).mp3")
        }
        let (feed, _) = try t.source("feed.xml", data: Data(FeedCommandTests.rss(title: "Big", items: items).utf8))
        // No room for SQLite's shared-memory file (an I/O error, 4874), then room for it but not
        // for the subscription's rows (SQLITE_FULL, 13): the same line, exit 74.
        let said = "podcli: no space left on the disk holding \(library): free some space, then try again\n"
        for left in [0, 100_000] {
            try disk.fill(leaving: left)
            let full = try t.podcli.run(["--home", library, "fetch", feed])
            #expect(full.status == 74, "\(left) bytes free: \(full)")
            #expect(full.stderr == said, "\(left) bytes free: \(full)")
            disk.empty()
        }
        #expect(try t.podcli.run(["--home", library, "fetch", feed]).status == 0)
    }

    // MARK: - Two at once

    @Test func twoFetchesOfOneURLAtOnceMakeOneEpisodeAndOneDownload() throws {
        let t = try CLITestCase()
        let (url, data) = try t.source("shared.mp3", size: 400_000)
        let slow = url + "?slow=400000"
        let first = try t.podcli.start(["--home", t.home.path, "fetch", slow])
        let second = try t.podcli.start(["--home", t.home.path, "fetch", slow])
        let results = [try first.waitUntilExit(), try second.waitUntilExit()]
        #expect(results.contains { $0.status == 0 }, "\(results)")
        for result in results where result.status != 0 {
            #expect(result.status == 75, "\(result)")
            #expect(
                result.stderr == "podcli: busy: another podcli is downloading #1 shared; try again when it "
                    + "has finished\n", "\(result)")
        }
        let episodes = try Self.episodes(t)
        #expect(episodes.count == 1, "\(episodes)")
        let path = try #require(try t.show("1")["path"] as? String)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
        let gets = try t.server.stats(pathPrefix: String(slow.dropFirst(t.server.baseURL.count)))
            .filter { $0.method == "GET" }
        #expect(gets.count == 1, "\(gets)")
    }

    @Test func twoSubscriptionsToOneFeedAtOnceMakeOneFeed() throws {
        let world = try FeedCommandTests.World()
        let items = (1...3).map { world.item($0) }
        // About 2 s of feed each: both are fetching before either records it.
        let padding = "<!-- " + String(repeating: "padding ", count: 5_000) + "-->"
        let feed = FeedCommandTests.rss(title: "Twice", items: items, channelExtra: padding)
        let url = try world.serve("feed.xml", feed) + "?slow=20000"
        let runs = try (0..<2).map { _ in try world.t.podcli.start(["--home", world.t.home.path, "fetch", url]) }
        let results = try runs.map { try $0.waitUntilExit() }
        for result in results {
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
        }
        #expect(results.contains { $0.stdout.hasPrefix("Subscribed to #1 Twice: 3 episodes") }, "\(results)")
        #expect(results.contains { $0.stdout == "Refreshed #1 Twice: 0 new\n" }, "\(results)")
        #expect(try world.feeds().count == 1)
        #expect(try world.episodes().count == 3)
    }

    // MARK: - All or nothing

    @Test(
        .requires(
            PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/sox")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/lame"),
            "needs pulseaudio, libasound2-plugins, sox and lame"))
    func unsubscribingWithFilesWhileOneIsPlayingChangesNothing() throws {
        let s = SyncCommandTests.Shelf()
        try SyncCommandTests.tone(seconds: 60).write(to: s.w.directory.appendingPathComponent("alpha-ep1.mp3"))
        try s.subscribe(try s.serve("alpha", episodes: 1...2))
        try s.config("download = all\n")
        #expect(try s.sync(["-q"]).status == 0)
        let directories = s.w.episodeDirectories().sorted()
        #expect(directories.count == 2)

        let playing = try s.playInRealTime("alpha 1")

        let busy = try s.t.run(["unsubscribe", "alpha", "--delete-files"])
        #expect(busy.status == 75, "\(busy)")
        #expect(
            busy.stderr == "podcli: busy: #\(try s.id("alpha 1")) alpha 1 is being played; try again when it "
                + "has finished\n")
        #expect(try s.w.feeds().count == 1)
        #expect(try s.downloaded() == ["alpha 2", "alpha 1"])
        #expect(s.w.episodeDirectories().sorted() == directories)

        #expect(try s.t.run(["stop"]).status == 0)
        #expect(try playing.player.waitUntilExit(timeout: 10).status == 0)
        let done = try s.t.run(["unsubscribe", "alpha", "--delete-files"])
        #expect(done.status == 0, "\(done)")
        #expect(try s.w.feeds().isEmpty && s.w.episodes().isEmpty)
        #expect(s.w.episodeDirectories().isEmpty)
    }
}
