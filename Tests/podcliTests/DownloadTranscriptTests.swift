import Foundation
import TestSupport
import Testing

/// The transcript a feed offers (`podcast:transcript`, several types, under both namespace URIs),
/// fetched when the episode is downloaded, kept beside the audio with its protection's mode,
/// searched by `list -s`, and gone with the episode.
struct DownloadTranscriptTests {
    /// A feed of one episode offering its transcript as plain text, SRT, WebVTT (these under the
    /// current namespace URI) and JSON (under the older one), served by a server of its own,
    /// subscribed and downloaded, the server stopped.
    struct World {
        let t: CLITestCase
        let served: TemporaryDirectory
        /// The paths the server was asked for.
        let requests: [String]
        /// What the download said on stderr.
        let downloadStderr: String

        init(json: String, protection: String = "private", via: String = "download") throws {
            t = try CLITestCase()
            served = try TemporaryDirectory(prefix: "podcli-transcript-served")
            let server = try FaultServer(root: served.url)
            defer { server.stop() }
            let files = server.baseURL + "/files/"
            _ = try served.write(CLITestCase.audioBytes(100_000), to: "episode.mp3")
            _ = try served.write(json, to: "t.json")
            _ = try served.write("WEBVTT\n\n00:00.000 --> 00:05.000\nzeppelin in WebVTT\n", to: "t.vtt")
            _ = try served.write("1\n00:00:00,000 --> 00:00:05,000\nzeppelin in SRT\n", to: "t.srt")
            _ = try served.write("zeppelin in plain text\n", to: "t.txt")
            let feed = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"
                     xmlns:pi="https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md">
                <channel><title>Said</title>
                <item><title>One</title><guid>one</guid>
                <enclosure url="\(files)episode.mp3" length="100000" type="audio/mpeg"/>
                <podcast:transcript url="\(files)t.txt" type="text/plain"/>
                <podcast:transcript url="\(files)t.srt" type="application/srt" rel="captions"/>
                <pi:transcript url="\(files)t.json" type="application/json" language="en"/>
                <podcast:transcript url="\(files)t.vtt" type="text/vtt"/>
                </item></channel></rss>
                """
            _ = try served.write(feed, to: "feed.xml")
            let feedURL = files + "feed.xml"
            let commands: [[String]] =
                switch via {
                case "sync": [["fetch", "--protection", protection, feedURL], ["sync"]]
                case "fetch": [["fetch", "--protection", protection, feedURL, "--download", "1"]]
                default: [["fetch", "--protection", protection, feedURL], ["download", "1"]]
                }
            var stderr = ""
            for command in commands {
                let result = try t.run(command)
                guard result.status == 0 else { throw TestSupportError("\(command) failed: \(result)") }
                stderr = result.stderr
            }
            downloadStderr = stderr
            requests = try server.stats().map(\.path)
        }

        /// `list -s TEXT --json`'s episodes.
        func found(_ text: String) throws -> [[String: Any]] {
            let result = try t.run(["list", "-s", text, "--json"])
            guard result.status == 0 else { throw TestSupportError("list -s failed: \(result)") }
            return try JSONSerialization.jsonObject(with: result.stdoutData) as! [[String: Any]]
        }

        func transcriptPath() throws -> String {
            let uuid = try #require(try t.show("1")["uuid"] as? String)
            return t.home.path + "/episodes/\(uuid)/transcript.json"
        }
    }

    static let json = #"""
        {"version": "1.0.0", "segments": [
          {"speaker": "Host", "startTime": 0, "endTime": 4.5, "body": "Welcome aboard."},
          {"speaker": "Guest", "startTime": 754.2, "endTime": 758, "body": "The zeppelin flew over Krak&oacute;w."}
        ]}
        """#

    /// Of four offers the JSON one (the older namespace URI's) is the only transcript fetched; it
    /// is kept with the episode's protection's mode, `list -s` finds a word said in it at its
    /// time, and `verify` has nothing to say about the extra file.
    @Test(arguments: [("download", "private"), ("sync", "private"), ("fetch", "open")])
    func theMostStructuredOfferIsKeptAndSearched(via: String, protection: String) throws {
        let w = try World(json: Self.json, protection: protection, via: via)
        #expect(w.requests.filter { $0.hasPrefix("/files/t.") } == ["/files/t.json"], "\(w.requests)")
        #expect(!w.downloadStderr.contains("warning"), "\(w.downloadStderr)")

        let path = try w.transcriptPath()
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == (protection == "open" ? 0o644 : 0o600))
        let cached = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(cached["format"] as? String == "json")
        let cues = try #require(cached["cues"] as? [[String: Any]])
        #expect(cues.map { $0["speaker"] as? String } == ["Host", "Guest"])

        let found = try w.found("zeppelin")
        #expect(found.map { $0["title"] as? String } == ["One"])
        let hit = try #require(found.first?["found"] as? [String: Any])
        #expect(hit["transcript_at"] as? Double == 754.2)
        #expect(try w.found("webvtt").isEmpty)
        let verify = try w.t.run(["verify"])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")
    }

    /// A transcript that is not what it was offered as costs one warning line, never the download.
    @Test func aBrokenTranscriptIsOneWarningAndTheDownloadSucceeds() throws {
        let w = try World(json: #"{"version": "1.0.0", "segments": [{"startTime": "#)
        let warnings = w.downloadStderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(w.downloadStderr)")
        #expect(warnings.first?.contains("#1 One: no transcript kept: the JSON transcript cannot be read") == true)
        #expect(try w.t.show("1")["state"] as? String == "downloaded")
        #expect(!FileManager.default.fileExists(atPath: try w.transcriptPath()))
        #expect(try w.found("zeppelin").isEmpty)
    }

    /// `rm` takes the transcript with the episode: no file, no hit.
    @Test func removingTheEpisodeLeavesNoHitAndNoFile() throws {
        let w = try World(json: Self.json)
        let path = try w.transcriptPath()
        #expect(FileManager.default.fileExists(atPath: path))
        let removed = try w.t.run(["rm", "1"])
        #expect(removed.status == 0, "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try w.found("zeppelin").isEmpty)
    }

    /// When the feed's preferred offer changes (a more structured type appears, then another
    /// URL), the next `sync` (or `refresh` and `download` of the downloaded episode) fetches it
    /// and replaces the kept transcript and its index; an unchanged offer is not fetched again.
    @Test(arguments: ["sync", "download"])
    func aChangedOfferIsFetchedAgainAndAnUnchangedOneIsNot(via: String) throws {
        let w = try TranscriptCommandTests.Offered(
            offers: [("t.txt", type: "text/plain")],
            serving: [
                "t.txt": "airship in plain text\n", "t.vtt": "WEBVTT\n\n00:00.000 --> 00:05.000\nzeppelin in WebVTT\n",
                "t2.vtt": "WEBVTT\n\n00:00.000 --> 00:05.000\nharbour in WebVTT\n",
            ], download: true)
        let again = via == "sync" ? [["sync"]] : [["refresh"], ["download", "1"]]
        func runAgain() throws {
            for command in again {
                let result = try w.t.run(command)
                #expect(result.status == 0 && !result.stderr.contains("warning"), "\(command): \(result)")
            }
        }
        let cache = try w.episodeDirectory() + "/transcript.json"
        func cachedFormat() throws -> String? {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cache)))
            return (json as? [String: Any])?["format"] as? String
        }
        #expect(try w.found("airship") == ["One"] && cachedFormat() == "text")
        try runAgain()
        #expect(try w.requests(for: "t.txt") == 1)

        try w.offer([("t.txt", type: "text/plain"), ("t.vtt", type: "text/vtt")])
        try runAgain()
        #expect(try w.requests(for: "t.vtt") == 1)
        #expect(try cachedFormat() == "vtt")
        #expect(try w.found("zeppelin") == ["One"] && w.found("airship").isEmpty)
        try runAgain()
        #expect(try w.requests(for: "t.vtt") == 1 && w.requests(for: "t.txt") == 1)

        try w.offer([("t.txt", type: "text/plain"), ("t2.vtt", type: "text/vtt")])
        try runAgain()
        #expect(try w.found("harbour") == ["One"] && w.found("zeppelin").isEmpty)
        #expect(try w.requests(for: "t2.vtt") == 1)
    }
}
