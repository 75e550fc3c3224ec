import Foundation
import TestSupport
import Testing
import Transcripts

/// `podcli transcript ID [--at TIME] [--json]`: an episode's cached transcript, cue by cue.
@Suite struct TranscriptCommandTests {
    /// A downloaded episode (#1) whose directory holds `transcript` as the fetch caches it.
    static func downloaded(with transcript: Transcript?) throws -> CLITestCase {
        let t = try CLITestCase()
        let fetch = try t.run(["fetch", try t.source("talk.mp3").url])
        guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        let uuid = try #require(try t.show("1")["uuid"] as? String)
        if let transcript {
            let file = URL(fileURLWithPath: t.home.path + "/episodes/\(uuid)/transcript.json")
            try JSONEncoder().encode(transcript).write(to: file)
        }
        return t
    }

    static let talk = Transcript(
        cues: [
            TranscriptCue(
                start: 0, end: 4.5, speaker: "Ann", text: "Welcome to the show, where we talk about everything."),
            TranscriptCue(start: 4.5, end: 9, speaker: "Ann", text: "Today a guest."),
            TranscriptCue(start: 9, end: 70, speaker: "Bob\u{1B}[2J", text: "Thanks\u{202E} for having me."),
            TranscriptCue(start: 3725, speaker: "Ann", text: "Bye."),
        ], format: .webVTT)

    @Test func cuesArePrintedWithTimesSpeakersWhereTheyChangeAndWrapped() throws {
        let t = try Self.downloaded(with: Self.talk)
        let result = try t.run(["transcript", "1"], environment: ["COLUMNS": "40"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        // Times as podcli prints them, wrapped under the text; the escape and the override are spaces.
        #expect(
            result.stdout == """
                0:00     Ann: Welcome to the show, where
                         we talk about everything.
                0:04     Today a guest.
                0:09     Bob [2J: Thanks  for having me.
                1:02:05  Ann: Bye.

                """)
    }

    @Test func atStartsAtTheCueBeingSpoken() throws {
        let t = try Self.downloaded(with: Self.talk)
        let result = try t.run(["transcript", "1", "--at", "0:30"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("0:09     Bob [2J: Thanks  for having me.\n"), "\(result)")
        #expect(result.stdout.hasSuffix("1:02:05  Ann: Bye.\n"))
        let bad = try t.run(["transcript", "1", "--at", "soon"])
        #expect(bad.status == 64, "\(bad)")
    }

    @Test func jsonGivesEveryCueAsAnObject() throws {
        let t = try Self.downloaded(with: Self.talk)
        let result = try t.run(["transcript", "1", "--json", "--at", "5"])
        #expect(result.status == 0, "\(result)")
        let cues = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        #expect(cues.count == 3)
        #expect(cues[0]["start"] as? Double == 4.5 && cues[0]["end"] as? Double == 9)
        #expect(cues[0]["speaker"] as? String == "Ann" && cues[0]["text"] as? String == "Today a guest.")
        #expect(cues[2]["end"] is NSNull)
        // The control characters reach a script escaped, never as themselves.
        #expect(!result.stdout.contains("\u{1B}") && result.stdout.lowercased().contains("\\u001b"))
    }

    @Test func anEpisodeWithoutATranscriptSaysSoAndExits66() throws {
        let t = try Self.downloaded(with: nil)
        let result = try t.run(["transcript", "1"])
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "podcli: #1 talk has no transcript.\n", "\(result)")
    }

    /// A feed of one episode ("One") offering its transcript at each of `offers` (a name in a
    /// folder of its own on the shared server, or a whole URL) as its type, serving `files`;
    /// subscribed, and downloaded when asked.
    struct Offered {
        let t: CLITestCase
        let folder: URL
        /// The folder's path on the server.
        let path: String

        init(
            offers: [(String, type: String)] = [("t.vtt", type: "text/vtt")], serving files: [String: String] = [:],
            download: Bool
        ) throws {
            t = try CLITestCase()
            let name = "transcript-\(UUID().uuidString)"
            folder = try t.server.makeDirectory(name)
            path = "/files/\(name)/"
            try CLITestCase.audioBytes(100_000).write(to: folder.appendingPathComponent("episode.mp3"))
            for (name, text) in files { try serve(text, as: name) }
            try offer(offers)
            var commands = [["fetch", t.server.url(path + "feed.xml")]]
            if download { commands.append(["download", "1"]) }
            for command in commands {
                let result = try t.run(command)
                guard result.status == 0 else { throw TestSupportError("\(command) failed: \(result)") }
            }
        }

        /// Writes the feed, offering these transcripts.
        func offer(_ offers: [(String, type: String)]) throws {
            let files = t.server.url(path)
            let tags = offers.map { offer, type in
                let url = offer.contains("://") ? offer : files + offer
                let escaped = url.replacingOccurrences(of: "&", with: "&amp;")
                return "<podcast:transcript url=\"\(escaped)\" type=\"\(type)\"/>"
            }
            let feed = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">
                <channel><title>Said</title>
                <item><title>One</title><guid>one</guid>
                <enclosure url="\(files)episode.mp3" length="100000" type="audio/mpeg"/>
                \(tags.joined(separator: "\n"))
                </item></channel></rss>
                """
            try serve(feed, as: "feed.xml")
        }

        func serve(_ text: String, as name: String = "t.vtt") throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        /// The requests for `name` in this world's folder.
        func requests(for name: String = "t.vtt") throws -> Int { try t.server.stats(pathPrefix: path + name).count }

        func episodeDirectory() throws -> String {
            t.home.path + "/episodes/" + (try #require(try t.show("1")["uuid"] as? String))
        }

        /// `list -s TEXT --json`'s titles.
        func found(_ text: String) throws -> [String] {
            let result = try t.run(["list", "-s", text, "--json"])
            guard result.status == 0 else { throw TestSupportError("list -s failed: \(result)") }
            return (try JSONSerialization.jsonObject(with: result.stdoutData) as! [[String: Any]]).map {
                $0["title"] as! String
            }
        }
    }

    static let vtt =
        "WEBVTT\n\n00:00.000 --> 00:05.000\n<v Ann>The zeppelin lands.\n\n01:05.000 --> 01:09.000\n<v Bob>Late words.\n"

    /// A downloaded episode whose transcript could not be fetched with its download (the server
    /// had none yet): `transcript` fetches it, keeps it with the episode's mode, indexes it, and
    /// the next `transcript` reads what was kept.
    @Test func aDownloadedEpisodesTranscriptIsFetchedKeptAndIndexedOnDemand() throws {
        let w = try Offered(download: true)
        #expect(try w.requests() == 1)
        let transcriptFile = try w.episodeDirectory() + "/transcript.json"
        #expect(!FileManager.default.fileExists(atPath: transcriptFile))
        try w.serve(Self.vtt)
        let result = try w.t.run(["transcript", "1"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == "0:00  Ann: The zeppelin lands.\n1:05  Bob: Late words.\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: transcriptFile)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try w.found("zeppelin") == ["One"])
        let again = try w.t.run(["transcript", "1", "--at", "70"])
        #expect(again.status == 0 && again.stdout == "1:05  Bob: Late words.\n", "\(again)")
        #expect(try w.requests() == 2)
    }

    /// An episode not downloaded has its transcript shown, and nothing written: no directory,
    /// no hit in `list -s`; the next `transcript` fetches it again.
    @Test func anEpisodeNotDownloadedIsShownWithNothingKept() throws {
        let w = try Offered(download: false)
        try w.serve(Self.vtt)
        let result = try w.t.run(["transcript", "1", "--json"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let cues = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        #expect(cues.map { $0["speaker"] as? String } == ["Ann", "Bob"])
        #expect(!FileManager.default.fileExists(atPath: try w.episodeDirectory()))
        #expect(try w.found("zeppelin").isEmpty)
        #expect(try w.t.run(["transcript", "1"]).status == 0)
        #expect(try w.requests() == 2)
    }

    /// What can go wrong fetching on demand is one line and its exit code: the server's error or
    /// no server (69), a file that is not what it was offered as (65), a type podcli cannot read
    /// (66).
    @Test(arguments: [
        ("t.vtt?status=503&times=100", "text/vtt", "WEBVTT\n", 69, "503"),
        ("closed", "text/vtt", "WEBVTT\n", 69, "127.0.0.1"),
        (
            "t.vtt", "text/vtt", "not a transcript\n", 65,
            "#1 One: the WebVTT transcript cannot be read: it does not start"
        ),
        (
            "t.vtt", "application/x-shorthand", "WEBVTT\n", 66,
            "#1 One has no transcript podcli reads (offered: application/x-shorthand)."
        ),
    ])
    func aFailedFetchIsOneLineAndItsExitCode(
        offer: String, type: String, body: String, status: Int32, says: String
    ) throws {
        let closed = try ClosedLoopbackPort()
        let w = try Offered(
            offers: [(offer == "closed" ? "http://127.0.0.1:\(closed.port)/t.vtt" : offer, type: type)], download: false
        )
        try w.serve(body)
        let result = try w.t.run(["transcript", "1"])
        #expect(result.status == status, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("podcli: ") && result.stderr.contains(says), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
    }
}
