import Foundation
import TestSupport
import Testing

/// `show`'s chapters from every source: the feed's JSON chapters file fetched once by `fetch`
/// (on a server of the test's own, stopped before `show`), kept in the episode's directory with
/// its protection's mode, and the file's own chapters, which win where the two disagree.
@Suite(.requires(AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct ShowChaptersTests {
    /// A feed of one episode (`audio`, with `chapters` as its JSON chapters file and two Podlove
    /// chapters), served by a server of its own, downloaded, and the server stopped.
    struct World {
        let t: CLITestCase
        let served: TemporaryDirectory

        /// `via`: `fetch` (with `--download 1`), `download` or `sync`, after subscribing.
        init(audio: Data, chapters: String, protection: String = "private", via: String = "fetch") throws {
            t = try CLITestCase()
            served = try TemporaryDirectory(prefix: "podcli-chapters-served")
            let server = try FaultServer(root: served.url)
            defer { server.stop() }
            _ = try served.write(audio, to: "episode.mp3")
            _ = try served.write(chapters, to: "chapters.json")
            let feed = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"
                     xmlns:psc="http://podlove.org/simple-chapters"><channel><title>Chaptered</title>
                <item><title>One</title><guid>one</guid>
                <enclosure url="\(server.baseURL)/files/episode.mp3" length="\(audio.count)" type="audio/mpeg"/>
                <podcast:chapters url="\(server.baseURL)/files/chapters.json" type="application/json+chapters"/>
                <psc:chapters version="1.2"><psc:chapter start="00:00:00" title="Podlove start"/>
                <psc:chapter start="00:00:05" title="Podlove five"/></psc:chapters>
                </item></channel></rss>
                """
            _ = try served.write(feed, to: "feed.xml")
            let feedURL = server.baseURL + "/files/feed.xml"
            let commands: [[String]] =
                switch via {
                case "sync": [["fetch", "--protection", protection, feedURL], ["sync"]]
                case "download": [["fetch", "--protection", protection, feedURL], ["download", "1"]]
                default: [["fetch", "--protection", protection, feedURL, "--download", "1"]]
                }
            for command in commands {
                let result = try t.run(command)
                guard result.status == 0 else { throw TestSupportError("\(command) failed: \(result)") }
            }
            let requests = try server.stats().map(\.path)
            guard requests.filter({ $0 == "/files/chapters.json" }).count == 1 else {
                throw TestSupportError("the chapters file was not fetched once: \(requests)")
            }
        }
    }

    /// An MP3 of the fixtures' source with ID3 chapters at `starts` titled `titles`.
    static func chapteredMP3(starts: [Double], titles: [String]) throws -> Data {
        let directory = try TemporaryDirectory(prefix: "podcli-chaptered")
        var metadata = ";FFMETADATA1\n"
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : Double(AudioFixtures.seconds)
            metadata +=
                "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int(start * 1000))\nEND=\(Int(end * 1000))\ntitle=\(titles[index])\n"
        }
        let chapters = try directory.write(metadata, to: "chapters.txt")
        let output = directory.appending("chaptered.mp3")
        try AudioFixtures.runFFmpeg([
            "-i", try AudioFixtures.shared.source().path, "-i", chapters.path, "-map", "0", "-map_chapters", "1",
            "-b:a", "32k", output.path,
        ])
        return try Data(contentsOf: output)
    }

    static let json = #"""
        {"version": "1.2.0", "chapters": [
          {"startTime": 0.4, "title": "JSON intro", "url": "https://example.com/intro", "img": "https://example.com/i.jpg"},
          {"startTime": 10, "title": "JSON ad", "toc": false},
          {"startTime": 15, "title": "Only in JSON"}
        ]}
        """#

    /// The file says two chapters, the feed three (and Podlove two more): the file's two, with
    /// the URL, image and "toc": false of the JSON chapters starting within a second of theirs.
    @Test func theFileWinsAndTakesWhatItLacksFromTheJSONChaptersCachedAtTheDownload() throws {
        let w = try World(
            audio: try Self.chapteredMP3(starts: [0, 10], titles: ["Intro 🎙️", "Реклама"]), chapters: Self.json)
        let shown = try w.t.show("1")
        let chapters = try #require(shown["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["Intro 🎙️", "Реклама"])
        #expect(chapters.map { $0["start"] as? Double } == [0, 10])
        #expect(chapters.map { $0["href"] as? String } == ["https://example.com/intro", nil])
        #expect(chapters.map { $0["image"] as? String } == ["https://example.com/i.jpg", nil])
        #expect(chapters.map { $0["toc"] as? Bool } == [nil, false])
        #expect(shown["chapter_problems"] as? [String] == [])

        // Kept beside the audio with the private protection's mode; verify has nothing to say.
        let uuid = try #require(shown["uuid"] as? String)
        let cached = w.t.home.path + "/episodes/\(uuid)/.chapters.json"
        let attributes = try FileManager.default.attributesOfItem(atPath: cached)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cached)) == Data(Self.json.utf8))
        let verify = try w.t.run(["verify"])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")

        // The one lookup: `chapters` lists the same.
        let listed = try w.t.run(["chapters", "1", "--json"])
        let table = try #require(try JSONSerialization.jsonObject(with: listed.stdoutData) as? [[String: Any]])
        #expect(table.map { $0["title"] as? String } == ["Intro 🎙️", "Реклама"])
        #expect(table.map { $0["navigation_stop"] as? Bool } == [true, false])

        let text = try w.t.run(["show", "1"])
        #expect(text.stdout.contains("Chapters:\n  0:00  Intro 🎙️\n  0:10  Реклама\n"), "\(text)")

        // Removed with the episode.
        let removed = try w.t.run(["rm", "1"])
        #expect(removed.status == 0, "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: w.t.home.path + "/episodes/\(uuid)"))
    }

    /// A file without chapters: the JSON chapters file's, a `toc: false` one kept (shown, not a
    /// stop), however the episode was downloaded; the file has the mode of its protection.
    @Test(arguments: [("fetch", "open"), ("download", "private"), ("sync", "private")])
    func withoutChaptersInTheFileTheJSONChaptersAreShown(via: String, protection: String) throws {
        let w = try World(audio: CLITestCase.audioBytes(100_000), chapters: Self.json, protection: protection, via: via)
        let shown = try w.t.show("1")
        let chapters = try #require(shown["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["JSON intro", "JSON ad", "Only in JSON"])
        #expect(chapters.map { $0["start"] as? Double } == [0.4, 10, 15])
        #expect(chapters.map { $0["toc"] as? Bool } == [nil, false, nil])
        let uuid = try #require(shown["uuid"] as? String)
        let attributes = try FileManager.default.attributesOfItem(
            atPath: w.t.home.path + "/episodes/\(uuid)/.chapters.json")
        #expect((attributes[.posixPermissions] as? Int) == (protection == "open" ? 0o644 : 0o600))
    }

    /// JSON that is not chapters: the Podlove chapters, and one line saying why.
    @Test func aChaptersFileThatIsNotChaptersIsOneLineInShow() throws {
        let w = try World(audio: CLITestCase.audioBytes(100_000), chapters: "<html><body>Not found</body></html>")
        let text = try w.t.run(["show", "1"])
        #expect(text.status == 0)
        let line = text.stdout.split(separator: "\n").filter { $0.hasPrefix("Chapters ") }
        #expect(
            line.map { $0.split(separator: " ", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces) } == [
                "the JSON chapters file is not chapters: it is not JSON"
            ])
        #expect(text.stdout.contains("Chapters:\n  0:00  Podlove start\n  0:05  Podlove five\n"), "\(text)")
        let shown = try w.t.show("1")
        #expect(shown["chapter_problems"] as? [String] == ["the JSON chapters file is not chapters: it is not JSON"])
    }
}
