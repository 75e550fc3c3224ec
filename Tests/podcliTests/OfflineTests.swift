import Foundation
import TestSupport
import Testing

/// A laptop with no network, or a server that is down: a host that refuses the connection or
/// whose name does not resolve is tried once per run, the feeds and episodes on it are told in
/// one line (exit 69), and nothing is held against them (no failure counted, no backoff).
@Suite struct OfflineTests {
    typealias World = FeedCommandTests.World

    /// A library subscribed to `refused` feeds on a port nothing listens on and `unresolved`
    /// feeds on a name that does not resolve, each with one new episode on the same dead host:
    /// subscribed from this test's server, whose documents say the feeds moved there
    /// (`itunes:new-feed-url`).
    struct DeadFeeds {
        let w: World
        /// Held for the test: the port stays closed and no one else's.
        let closed: ClosedLoopbackPort
        var port: Int { closed.port }
        /// The subscriptions' (dead) URLs.
        let urls: [String]

        init(refused: Int, unresolved: Int) throws {
            w = try World()
            closed = try ClosedLoopbackPort()
            let port = closed.port
            var outlines = ""
            var urls: [String] = []
            for n in 1...(refused + unresolved) {
                let host = n <= refused ? "127.0.0.1:\(port)" : "nonexistent.invalid"
                var item = w.item(1, in: "s\(n)")
                item.url = "http://\(host)/s\(n)/ep1.mp3"
                let url = try w.serve(
                    "show\(n).xml",
                    FeedCommandTests.rss(
                        title: "Show \(n)", items: [item],
                        channelExtra: "<itunes:new-feed-url>http://\(host)/show\(n).xml</itunes:new-feed-url>"))
                outlines += #"<outline type="rss" text="\#(n)" xmlUrl="\#(url)"/>"#
                urls.append("http://\(host)/show\(n).xml")
            }
            self.urls = urls
            let opml = try w.t.home.write(#"<opml version="2.0"><body>\#(outlines)</body></opml>"#, to: "shows.opml")
            let imported = try w.t.run(["import", "--quiet", opml.path], timeout: 120)
            guard imported.status == 0 else { throw TestSupportError("import failed: \(imported)") }
        }

        /// What an outage must not change: each feed's URL, failures, last error and backoff.
        func standing() throws -> [String] {
            try w.feeds().map { feed in
                ["url", "failures", "last_error", "retry_at"].map { "\(feed[$0] ?? "-")" }.joined(separator: " ")
            }
        }

        /// Runs `arguments`, returning the result and how long it took.
        func timed(_ arguments: [String]) throws -> (ProcessResult, seconds: Double) {
            let started = Date()
            let result = try w.t.run(arguments, timeout: 300)
            return (result, Date().timeIntervalSince(started))
        }
    }

    @Test func withNoServerReachableSyncRefreshAndImportEndInSecondsWithOneLineAndChangeNoFeed() throws {
        let s = try DeadFeeds(refused: 300, unresolved: 5)
        let before = try s.standing()
        #expect(before.count == 305)
        #expect(Set(try s.w.feeds().compactMap { $0["url"] as? String }) == Set(s.urls))
        let refused = "127.0.0.1:\(s.port) refused the connection"
        let unresolved = "nonexistent.invalid:80 could not be found"

        // 305 feeds and their 305 new episodes, two hosts: two failed connections in all.
        let (sync, seconds) = try s.timed(["sync", "--quiet"])
        #expect(sync.status == 69, "\(sync)")
        #expect(sync.stdout.isEmpty, "\(sync)")
        let line = sync.stderr.split(separator: "\n")
        #expect(line.count == 1, "\(sync.stderr.prefix(2000))")
        #expect(
            line.first?.hasPrefix(
                "podcli: no server could be reached: 305 feeds not refreshed, 305 episodes not "
                    + "downloaded (") == true, "\(sync.stderr.prefix(2000))")
        #expect(sync.stderr.contains(refused) && sync.stderr.contains(unresolved), "\(sync.stderr.prefix(2000))")
        #expect(seconds < 20, "sync took \(seconds) s")
        #expect(try s.standing() == before)
        #expect(try s.w.episodes(["--new", "--all"]).count == 305)
        let log = try String(contentsOfFile: s.w.t.home.path + "/sync.log", encoding: .utf8)
        #expect(log.contains("(305 not reached)") && log.contains("  failed: no server could be reached: "), "\(log)")

        let (refresh, refreshSeconds) = try s.timed(["refresh"])
        #expect(refresh.status == 69, "\(refresh)")
        #expect(refresh.stdout == "Checked 305 feeds: 0 new\n")
        #expect(refresh.stderr.split(separator: "\n").count == 1, "\(refresh.stderr.prefix(2000))")
        #expect(refresh.stderr.hasPrefix("podcli: no server could be reached: 305 feeds not refreshed ("))
        #expect(refreshSeconds < 20, "refresh took \(refreshSeconds) s")
        #expect(try s.standing() == before)

        // The subscriptions' own list imported again: each refreshed, none reached.
        let opml = s.urls.map { #"<outline type="rss" text="x" xmlUrl="\#($0)"/>"# }.joined()
        let file = try s.w.t.home.write(#"<opml version="2.0"><body>\#(opml)</body></opml>"#, to: "dead.opml")
        let (imported, importSeconds) = try s.timed(["import", file.path])
        #expect(imported.status == 69, "\(imported)")
        #expect(imported.stdout == "Subscribed to 0 feeds, refreshed 0\n")
        #expect(imported.stderr.split(separator: "\n").count == 1, "\(imported.stderr.prefix(2000))")
        #expect(imported.stderr.hasPrefix("podcli: no server could be reached: 305 feeds not imported ("))
        #expect(importSeconds < 20, "import took \(importSeconds) s")
        #expect(try s.standing() == before)
    }

    /// One server down among working ones: its feeds are told in one line, the others refreshed.
    @Test func aServerThatIsDownCostsOneLineAndTheFeedsElsewhereAreStillRefreshed() throws {
        let s = try DeadFeeds(refused: 40, unresolved: 0)
        let live = try s.w.serve("live.xml", FeedCommandTests.rss(title: "Live", items: [s.w.item(1, in: "live")]))
        #expect(try s.w.t.run(["fetch", live]).status == 0)
        try s.w.serve(
            "live.xml", FeedCommandTests.rss(title: "Live", items: [s.w.item(2, in: "live"), s.w.item(1, in: "live")]))
        _ = try s.w.t.home.write("download = none\n", to: "config")
        let before = try s.standing().filter { !$0.hasPrefix(live) }

        let (sync, seconds) = try s.timed(["sync"])
        #expect(sync.status == 69, "\(sync)")
        #expect(sync.stdout.hasPrefix("#41 Live: 1 new\nSynced 41 feeds (40 not reached), 1 new, "), "\(sync)")
        #expect(
            sync.stderr == "podcli: 40 feeds not refreshed (127.0.0.1:\(s.port) refused the connection)\n",
            "\(sync.stderr.prefix(2000))")
        #expect(seconds < 20, "sync took \(seconds) s")
        #expect(try s.standing().filter { !$0.hasPrefix(live) } == before)
        #expect(try s.w.episodes(["Live"]).count == 2)
    }
}
