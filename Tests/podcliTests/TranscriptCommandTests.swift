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
            TranscriptCue(start: 0, end: 4.5, speaker: "Ann", text: "Welcome to the show, where we talk about everything."),
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
}
