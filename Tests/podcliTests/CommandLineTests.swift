import Foundation
import TestSupport
import Testing

/// What only the command line shows: `podcli` alone, where results and diagnostics go, and the
/// one way episodes and feeds are named across commands. The built podcli, the loopback server.
@Suite struct CommandLineTests {
    @Test func podcliAloneSaysWhereThingsStandAndWhereHelpIs() throws {
        let t = try CLITestCase()
        let empty = try t.run([])
        #expect(empty.status == 0, "\(empty)")
        #expect(
            empty.stdout == """
                No library yet: 'podcli fetch URL' subscribes to a feed or downloads an episode.
                Nothing is playing.
                'podcli --help' lists the commands; 'podcli help COMMAND' tells one.

                """)
        #expect(empty.stderr.isEmpty)
        // It looks; it makes nothing.
        #expect(!FileManager.default.fileExists(atPath: t.home.path + "/podcli.db"))

        let w = try FeedCommandTests.World()
        let items = (1...3).map { w.item($0) }
        #expect(
            try w.t.run(["fetch", try w.serve("feed.xml", FeedCommandTests.rss(title: "Show", items: items))]).status
                == 0)
        let summary = try w.t.run([])
        #expect(summary.status == 0, "\(summary)")
        #expect(
            summary.stdout.hasPrefix("1 feed, 1 new episode ('podcli list --new'), 0 downloaded\nNothing is playing.\n")
        )
    }

    @Test func everyErrorLineBeginsWithTheProgramsName() throws {
        let t = try CLITestCase()
        for arguments in [["list", "--jsno"], ["frobnicate"], ["queue"], ["show", "99"], ["fetch", "ftp://x/y.mp3"]] {
            let result = try t.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.hasPrefix("podcli: "), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aListedEpisodeIsDownloadedByItsNumberWithDownloadOrFetch() throws {
        let w = try FeedCommandTests.World()
        var items: [FeedCommandTests.Item] = []
        for n in 1...3 {
            let audio = CLITestCase.audioBytes(20_000 + n)
            try audio.write(to: w.directory.appendingPathComponent("ep\(n).mp3"))
            var item = w.item(n)
            item.url = w.url("ep\(n).mp3")
            items.append(item)
        }
        #expect(
            try w.t.run(["fetch", try w.serve("feed.xml", FeedCommandTests.rss(title: "Show", items: items))]).status
                == 0)
        let ids = try w.episodes().map { "\($0["id"] as! Int)" }

        let two = try w.t.run(["download", ids[1], ids[2]])
        #expect(two.status == 0, "\(two)")
        #expect(two.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("Downloaded #") }, "\(two)")
        // A number that names no feed names the episode, for `fetch` too.
        let fetch = try w.t.run(["fetch", ids[0]])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout.hasPrefix("Downloaded #\(ids[0]) "), "\(fetch)")
        #expect(try w.episodes(["--downloaded"]).count == 3)
        let again = try w.t.run(["download", ids[0]])
        #expect(again.stdout.hasPrefix("Already downloaded: #\(ids[0]) "), "\(again)")

        let unknown = try w.t.run(["download", "999"])
        #expect(unknown.status == 66)
        #expect(unknown.stderr == "podcli: no episode '999': give its number or a UUID prefix (see 'podcli list')\n")
    }

    @Test func verifyAndConfigListSpeakJSONToo() throws {
        let t = try CLITestCase()
        let (url, _) = try t.source("kept.mp3")
        #expect(try t.run(["fetch", url]).status == 0)
        let path = try #require(try t.show("1")["path"] as? String)
        #expect(chmod(path, 0o644) == 0)

        let verify = try t.run(["verify", "--json"])
        #expect(verify.status == 1, "\(verify)")
        let checks = try #require(try JSONSerialization.jsonObject(with: verify.stdoutData) as? [[String: Any]])
        #expect(checks.count == 1)
        #expect(checks.first?["id"] as? Int == 1 && checks.first?["outcome"] as? String == "differs")
        #expect(checks.first?["differences"] as? [String] == ["mode 0644, recorded 0600"])
        let repaired = try t.run(["verify", "--repair", "--json"])
        #expect(repaired.status == 0, "\(repaired)")
        let after = try JSONSerialization.jsonObject(with: repaired.stdoutData) as? [[String: Any]]
        #expect(after?.first?["outcome"] as? String == "repaired")

        _ = try t.home.write("jobs = 2\n[feed \"Daily\"]\nkeep = 3\n", to: "config")
        let list = try t.run(["config", "list", "--json"])
        #expect(list.status == 0, "\(list)")
        let config = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [String: Any])
        #expect((config["settings"] as? [String: String])?["jobs"] == "2")
        #expect((config["settings"] as? [String: String])?["keep"] == "all")
        let sections = config["feeds"] as? [[String: Any]]
        #expect(sections?.first?["name"] as? String == "Daily")
        #expect(sections?.first?["settings"] as? [String: String] == ["keep": "3"])
    }

    @Test func listJSONIsAProjectionOfShowJSON() throws {
        let w = try FeedCommandTests.World()
        var items = (1...3).map { w.item($0) }
        let audio = CLITestCase.audioBytes(20_000)
        try audio.write(to: w.directory.appendingPathComponent("ep3.mp3"))
        items[2].url = w.url("ep3.mp3")
        items[0].url = w.url("missing.mp3")
        #expect(
            try w.t.run(["fetch", try w.serve("feed.xml", FeedCommandTests.rss(title: "Show", items: items))]).status
                == 0)
        // Newest first: 3 (downloaded and kept), 2 (listed only), 1 (its download failed).
        let ids = try w.episodes().map { "\($0["id"] as! Int)" }
        #expect(try w.t.run(["download", ids[0]]).status == 0)
        #expect(try w.t.run(["keep", ids[0]]).status == 0)
        #expect(try w.t.run(["download", ids[2]]).status == 69)
        for listed in try w.episodes() {
            let shown = try w.t.show("\(listed["id"] as! Int)")
            for (key, value) in listed {
                let json = { (value: Any?) in
                    (try? JSONSerialization.data(withJSONObject: [value ?? NSNull()])).map {
                        String(decoding: $0, as: UTF8.self)
                    }
                }
                #expect(
                    shown.keys.contains(key) && json(shown[key]) == json(value),
                    "\(key): list \(value), show \(String(describing: shown[key]))")
            }
        }
        #expect(try w.episodes().contains { ($0["last_error"] as? String)?.contains("404") == true })
    }
}
