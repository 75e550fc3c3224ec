import Foundation
import TestSupport
import Testing

/// `podcli chapters ID [--json] [--skip N] [--unskip N]`: an episode's chapters, numbered as
/// they play, and the chapters its player skips.
@Suite struct ChaptersCommandTests {
    /// A feed of two episodes, the first with Podlove chapters, served where it can change.
    struct World {
        let t: CLITestCase
        let folder: URL

        init() throws {
            t = try CLITestCase()
            folder = try t.server.makeDirectory("chapters-\(UUID().uuidString)")
        }

        var feedURL: String { t.server.url("/files/\(folder.lastPathComponent)/feed.xml") }

        func serve(chapters: String) throws {
            let rss = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><title>Chaptered</title>
                <item><title>Plain</title><guid>plain</guid>
                <enclosure url="http://127.0.0.1:9/plain.mp3" length="1" type="audio/mpeg"/></item>
                <item><title>Marked</title><guid>marked</guid>
                <enclosure url="http://127.0.0.1:9/marked.mp3" length="1" type="audio/mpeg"/>
                <psc:chapters version="1.2">\(chapters)</psc:chapters></item>
                </channel></rss>
                """
            try Data(rss.utf8).write(to: folder.appendingPathComponent("feed.xml"))
        }

        /// `chapters ID --json ARGS...`, decoded.
        func chapters(_ id: String, _ arguments: [String] = []) throws -> [[String: Any]] {
            let result = try t.run(["chapters", id, "--json"] + arguments)
            guard result.status == 0 else { throw TestSupportError("chapters failed: \(result)") }
            return try JSONSerialization.jsonObject(with: result.stdoutData) as! [[String: Any]]
        }

        /// The numbers of the skipped chapters.
        func skipped(_ id: String) throws -> [Int] {
            try chapters(id).filter { $0["skipped"] as? Bool == true }.map { $0["number"] as! Int }
        }
    }

    static let threeChapters = """
        <psc:chapter start="0" title="Intro"/>
        <psc:chapter start="01:02" title="Two&#x202E;" href="https://x/two"/>
        <psc:chapter start="02:03.500" title="Three" image="https://x/c.jpg"/>
        """

    /// Subscribed: Plain is #1, Marked #2.
    static func subscribed() throws -> World {
        let world = try World()
        try world.serve(chapters: threeChapters)
        let fetch = try world.t.run(["fetch", world.feedURL])
        guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        let listed = try JSONSerialization.jsonObject(with: try world.t.run(["list", "--json"]).stdoutData)
        let ids = (listed as! [[String: Any]]).map { ($0["title"] as! String, $0["id"] as! Int) }
        guard Set(ids.map { "\($0.0)\($0.1)" }) == ["Plain1", "Marked2"] else { throw TestSupportError("ids: \(ids)") }
        return world
    }

    @Test func chaptersAreListedWithTheirStartsEndsLinksAndImages() throws {
        let w = try Self.subscribed()
        let text = try w.t.run(["chapters", "2"])
        #expect(text.status == 0 && text.stderr.isEmpty, "\(text)")
        // The bidirectional override from the feed is a space, on a terminal or not.
        #expect(
            text.stdout == """
                N  START  END   TITLE
                1  0:00   1:02  Intro
                2  1:02   2:03  Two\u{20}
                   URL: https://x/two
                3  2:03   -     Three
                   Image: https://x/c.jpg

                """)
        let json = try w.t.run(["chapters", "2", "--json"])
        #expect(json.stdout.contains(#""title" : "Two\u202E""#), "\(json.stdout)")
        let chapters = try w.chapters("2")
        #expect(chapters.map { $0["number"] as? Int } == [1, 2, 3])
        #expect(chapters.map { $0["start"] as? Double } == [0, 62, 123.5])
        #expect(chapters.map { $0["end"] as? Double } == [62, 123.5, nil])
        #expect(chapters[1]["url"] as? String == "https://x/two" && chapters[0]["url"] is NSNull)
        #expect(chapters[2]["image"] as? String == "https://x/c.jpg")
        #expect(chapters.allSatisfy { $0["skipped"] as? Bool == false && $0["navigation_stop"] as? Bool == true })
    }

    @Test func anEpisodeWithoutChaptersSaysSo() throws {
        let w = try Self.subscribed()
        let plain = try w.t.run(["chapters", "1"])
        #expect(plain.status == 0 && plain.stdout == "#1 Plain has no chapters.\n", "\(plain)")
        #expect(try w.t.run(["chapters", "1", "--json"]).stdout == "[\n\n]\n")
    }

    /// Skips are kept by the chapter's start: a refresh that puts a chapter before the skipped
    /// one renumbers it, and it is still skipped.
    @Test func skippedChaptersAreKeptAndSurviveTheChaptersBeingReadAgain() throws {
        let w = try Self.subscribed()
        let listed = try w.t.run(["chapters", "2", "--skip", "2", "--skip", "1,3"])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains("1  0:00   1:02  Intro (skipped)\n"), "\(listed.stdout)")
        #expect(try w.skipped("2") == [1, 2, 3])
        #expect(try w.chapters("2", ["--unskip", "1", "--unskip", "3"]).count == 3)
        #expect(try w.skipped("2") == [2])

        try w.serve(chapters: #"<psc:chapter start="00:30" title="Teaser"/>"# + Self.threeChapters)
        #expect(try w.t.run(["refresh"]).status == 0)
        #expect(try w.chapters("2").map { $0["title"] as? String } == ["Intro", "Teaser", "Two\u{202E}", "Three"])
        #expect(try w.skipped("2") == [3])
    }

    @Test(arguments: [
        (["--skip", "4"], "no chapter '4' in #2: its chapters are numbered 1 to 3 ('podcli chapters 2')"),
        (["--unskip", "0"], "no chapter '0' in #2: its chapters are numbered 1 to 3 ('podcli chapters 2')"),
        (["--skip", "1,x"], "no chapter 'x' in #2: its chapters are numbered 1 to 3 ('podcli chapters 2')"),
        (
            ["--skip", "1", "--unskip", "2.5"],
            "no chapter '2.5' in #2: its chapters are numbered 1 to 3 ('podcli chapters 2')"
        ),
    ])
    func aNumberThatIsNoChaptersIsAUsageErrorAndChangesNothing(arguments: [String], message: String) throws {
        let w = try Self.subscribed()
        let result = try w.t.run(["chapters", "2"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr == "podcli: \(message)\n")
        #expect(result.stdout.isEmpty)
        #expect(try w.skipped("2") == [])
    }

    @Test func skippingInAnEpisodeWithoutChaptersIsAUsageError() throws {
        let w = try Self.subscribed()
        let result = try w.t.run(["chapters", "1", "--skip", "1"])
        #expect(result.status == 64 && result.stderr == "podcli: #1 has no chapters\n", "\(result)")
    }
}
