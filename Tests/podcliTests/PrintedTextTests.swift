import Foundation
import TestSupport
import Testing

/// What a hostile feed puts in its text against every place podcli prints or logs it: control
/// characters and bidirectional overrides in titles, authors and enclosure URLs, a password in
/// its URLs, titles megabytes long. The built podcli, real libcurl, the loopback fault server;
/// the assertions are on the bytes of stdout, stderr, `sync.log`, `--json` and `export`.
@Suite struct PrintedTextTests {
    static let password = "s3cr3t-pw"

    /// A library subscribed, through `reader:<password>@`, to a feed whose channel and items carry
    /// controls: a downloadable episode, one whose file is gone (404), and one whose enclosure URL
    /// has CR, LF and NEL in it; `sync` with `download = all` has run.
    struct HostileShelf {
        let w: FeedCommandTests.World
        let feedURL: String
        let sync: ProcessResult

        /// The title of the newest episode as the feed gives it.
        static let episodeTitle = "Ep\u{9B}2J One\u{202E}\r\npodcli: forged row"
        static let showTitle = "Hostile\u{85}Show\u{9B}31m\u{2067}x"

        init() throws {
            w = try FeedCommandTests.World()
            let port = w.t.server.port
            // The server answers 401 unless libcurl sends these credentials: the password is used.
            let password = PrintedTextTests.password
            let basic = Data("reader:\(password)".utf8).base64EncodedString()
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let secret = "http://reader:\(password)@127.0.0.1:\(port)"
            let audio = try Data(contentsOf: fixture("tone-44k-stereo.mp3"))
            try audio.write(to: w.directory.appendingPathComponent("ep3.mp3"))
            let items = [
                (Self.episodeTitle, secret + w.path("ep3.mp3") + "?basic=\(basic)", "Auth\u{85}or\u{202D}"),
                ("Two\u{202A}gone", secret + w.path("gone.mp3") + "?basic=\(basic)", "Plain"),
                // A title with a URL whose password `list` cuts at its TITLE column's 200 characters.
                (
                    "Three\u{2066} " + String(repeating: "x", count: 173) + " http://reader:\(password)@example.com/",
                    "http://127.0.0.1:\(port)" + w.path("x\r\npodcli: forged\u{85}line.mp3"), "Plain"
                ),
            ]
            var xml =
                #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0""#
                + #" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>"#
                + "<title>\(Self.xml(Self.showTitle))</title>"
                + "<itunes:author>\(Self.xml("Evil\u{2068}Author"))</itunes:author>"
            for (n, item) in items.enumerated() {
                xml +=
                    "<item><title>\(Self.xml(item.0))</title><guid>g\(n)</guid>"
                    + "<pubDate>\(FeedCommandTests.rfc822(FeedCommandTests.Item.day(3 - n)))</pubDate>"
                    + "<itunes:author>\(Self.xml(item.2))</itunes:author>"
                    + #"<enclosure url="\#(Self.xml(item.1))" length="30000" type="audio/mpeg"/></item>"#
            }
            try w.serve("hostile.xml", xml + "</channel></rss>\n")
            feedURL = secret + w.path("hostile.xml") + "?basic=\(basic)"
            let fetch = try w.t.run(["fetch", feedURL])
            guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
            _ = try w.t.home.write("download = all\n", to: "config")
            sync = try w.t.run(["sync"])
        }

        /// Text as XML character data or attribute value: every control and non-ASCII character
        /// as a character reference, so the document itself is plain ASCII.
        static func xml(_ text: String) -> String {
            text.unicodeScalars.map { scalar in
                switch scalar {
                case "&": "&amp;"
                case "<": "&lt;"
                case "\"": "&quot;"
                case _ where scalar.value < 0x20 || scalar.value >= 0x7F: "&#x\(String(scalar.value, radix: 16));"
                default: String(scalar)
                }
            }.joined()
        }
    }

    /// The controls in `text` (any Cc but line feed and tab, and the bidirectional controls), as
    /// U+ names.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            scalar != "\n" && scalar != "\t"
                && (scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
                    || (0x2066...0x2069).contains(scalar.value))
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// Everything a run wrote, as one text per stream, named.
    static func streams(_ name: String, _ result: ProcessResult) -> [(String, String)] {
        [(name + " stdout", result.stdout), (name + " stderr", result.stderr)]
    }

    @Test func feedTextReachesNoTerminalNorLogAsControlsAndNoPasswordIsShown() throws {
        let s = try HostileShelf()
        let t = s.w.t
        // The password was used: the episode behind it downloaded (the server wants it), the
        // other two failed.
        #expect(s.sync.status != 0, "\(s.sync)")
        let newest = try #require(try s.w.episodes().first)
        #expect(newest["state"] as? String == "downloaded", "\(newest) \(s.sync)")
        let id = "\(newest["id"] as! Int)"
        let failed = try #require(try s.w.episodes().last)
        #expect(failed["state"] as? String == "failed", "\(failed)")

        var texts = Self.streams("sync", s.sync)
        texts.append(("sync.log", try String(contentsOfFile: t.home.path + "/sync.log", encoding: .utf8)))
        let gone = try #require(try s.w.episodes().first { $0["title"] as? String == "Two\u{202A}gone" })
        let commands = [
            ["list"], ["show", id], ["show", "\(failed["id"] as! Int)"], ["feeds"], ["refresh"],
            // The "Playing" and "Played" lines, and "Streaming ... from URL" (the file is gone).
            ["play", id, "--device", "null"], ["play", "\(gone["id"] as! Int)", "--device", "null"],
        ]
        for command in commands {
            texts += Self.streams(command.joined(separator: " "), try t.run(command))
        }
        for command in [["list", "--json"], ["show", id, "--json"], ["feeds", "--json"], ["export"]] {
            let result = try t.run(command)
            #expect(result.status == 0, "\(command) \(result)")
            texts += Self.streams(command.joined(separator: " "), result)
        }
        for (name, text) in texts {
            #expect(Self.controls(in: text).isEmpty, "\(name): \(Self.controls(in: text)) in \(text)")
            // Not even its start, where a cell was cut.
            #expect(!text.contains("reader:" + Self.password.prefix(2)), "\(name): \(text)")
            // A forged row or log line would start a line.
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("podcli: forged") }, "\(name): \(text)")
        }
        let all = texts.map(\.1).joined(separator: "\n")
        // The text around the controls is still there, and the URLs with their users.
        #expect(all.contains("Ep 2J One  podcli: forged row"), "\(all)")
        #expect(all.contains("Played #\(id) Ep 2J One  podcli: forged row\n"), "\(all)")
        #expect(all.contains("Streaming #\(gone["id"] as! Int) Two gone from http://reader:***@127.0.0.1:"), "\(all)")
        #expect(all.contains("Hostile Show 31m x"), "\(all)")
        // A URL from a feed loses its CR and LF and has the rest percent-encoded (URLRepair), as a
        // browser reads it.
        #expect(all.contains("xpodcli:%20forged%C2%85line.mp3"), "\(all)")
        #expect(all.contains("http://reader:***@127.0.0.1:\(t.server.port)" + s.w.path("gone.mp3")), "\(all)")
        let log = try String(contentsOfFile: t.home.path + "/sync.log", encoding: .utf8)
        #expect(log.contains("gone.mp3"), "\(log)")

        // JSON keeps the data, escaped: the titles come back whole once decoded.
        let show = try t.show(id)
        // (The feed reader folds the CR LF into a space.)
        #expect(show["title"] as? String == "Ep\u{9B}2J One\u{202E} podcli: forged row")
        #expect(show["feed"] as? String == HostileShelf.showTitle)
        #expect((show["url"] as? String)?.hasPrefix("http://reader:***@") == true, "\(show)")
        // `export` keeps the password only when asked.
        let export = try t.run(["export", "--with-credentials"])
        #expect(export.stdout.contains(#"xmlUrl="\#(s.feedURL.replacingOccurrences(of: "&", with: "&amp;"))""#))
        #expect(Self.controls(in: export.stdout).isEmpty, "\(export)")
    }

    @Test func aTitleOfElevenMebibytesIsStoredCutAndListStaysSmall() throws {
        let w = try FeedCommandTests.World()
        // Two-byte and four-byte characters where the cut falls: it must fall between characters.
        let start = String(repeating: "é🎙x", count: 1_000)
        var items = (1...3).map { w.item($0) }
        items[2].title = start + String(repeating: "y", count: 30_000)
        let document = FeedCommandTests.rss(title: "@TITLE@", items: items.reversed())
        var body = Data(document.prefix { $0 != "@" }.utf8)
        body.append(Data(start.utf8))
        body.append(Data(repeating: UInt8(ascii: "y"), count: 11 * 1024 * 1024))
        body.append(Data(document.drop { $0 != "@" }.dropFirst("@TITLE@".count).utf8))
        try body.write(to: w.directory.appendingPathComponent("huge.xml"))
        let fetch = try w.t.run(["fetch", w.url("huge.xml")])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout.utf8.count < 8_192, "\(fetch.stdout.utf8.count) bytes")

        let episode = try #require(try w.episodes().first)
        let title = try #require(episode["title"] as? String)
        #expect(title.utf8.count <= 4_096 && title.utf8.count > 4_088, "\(title.utf8.count)")
        #expect(start.hasPrefix(title))
        let feed = try #require(try w.feeds().first?["title"] as? String)
        #expect(feed == title, "\(feed.utf8.count)")

        let list = try w.t.run(["list"])
        #expect(list.status == 0, "\(list)")
        // Four lines: the header and three rows, each within the table's limits.
        #expect(list.stdout.split(separator: "\n").count == 4, "\(list)")
        #expect(list.stdout.utf8.count < 4_096, "\(list.stdout.utf8.count) bytes")
        #expect(list.stdout.contains("Episode 2"))
    }
}
