import Foundation
import TestSupport
import Testing

/// `podcli stats` after real plays on the ALSA file tap (issue 24): an episode with three 4 s
/// pauses played with skip silence at 1× and at 2×, and a tone at 1×, in two feeds. Wall time is
/// what reached the device (the capture's length), media time the file's known length.
@Suite(
    .requires(
        TestEnvironment.has("/usr/bin/ffmpeg") && TestEnvironment.has("/usr/bin/sqlite3"), "needs ffmpeg and sqlite3"))
struct StatsCommandTests {
    static let second = 44_100 * 4

    /// `podcli stats --json ARGS`, decoded.
    static func stats(_ t: CLITestCase, _ arguments: [String] = []) throws -> [String: Any] {
        let result = try t.run(["stats", "--json"] + arguments)
        guard result.status == 0 else { throw TestSupportError("stats failed: \(result)") }
        return try JSONSerialization.jsonObject(with: result.stdoutData) as! [String: Any]
    }

    /// Subscribes to a feed named `title` of one episode, `file`, downloaded; its episode's number.
    static func subscribe(_ title: String, _ file: URL, in t: CLITestCase) throws -> String {
        let audio = try t.source(file.lastPathComponent, data: try Data(contentsOf: file))
        let rss = FeedCommandTests.rss(
            title: title,
            items: [
                .init(
                    title: "\(title) 1", guid: "\(title)-1", url: audio.url, length: audio.data.count,
                    type: "audio/flac")
            ])
        let fetch = try t.run(["fetch", try t.source("\(title).xml", data: Data(rss.utf8)).url, "--download", "all"])
        guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        let listed = try JSONSerialization.jsonObject(with: try t.run(["list", title, "--json"]).stdoutData)
        return "\((listed as! [[String: Any]])[0]["id"] as! Int)"
    }

    /// Two feeds played: "Talk" (16 s with pauses) at 1× then 2× with skip silence, "Tones" (10 s)
    /// at 1×. Returns the library and the seconds each play put on the device.
    static func played() throws -> (library: PlayCommandTests.Library, talk: [Double], tone: Double) {
        let library = try PlayCommandTests.Library()
        let speech = library.captures.appending("speech.flac")
        try PausedSpeech.make(at: speech)
        let tone = library.captures.appending("tone.flac")
        try AudioFixtures.runFFmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=10", "-ac", "2", tone.path,
        ])
        let talk = try subscribe("Talk", speech, in: library.t)
        let tones = try subscribe("Tones", tone, in: library.t)
        var heard: [Double] = []
        for (name, speed) in [("once", "1"), ("twice", "2")] {
            let play = try library.play(
                [talk, "--skip-silence", "medium", "--speed", speed], device: library.device(name))
            guard play.status == 0 else { throw TestSupportError("play failed: \(play)") }
            heard.append(Double(try library.captured(name).count) / Double(second))
        }
        let play = try library.play([tones], device: library.device("tone"))
        guard play.status == 0 else { throw TestSupportError("play failed: \(play)") }
        return (library, heard, Double(try library.captured("tone").count) / Double(second))
    }

    /// Media time is the episodes' length, wall time what the device got; skip silence saved the
    /// media it left out (16 s less what 1× put on the device), speed the rest of the difference
    /// (at 1× nothing); per feed and in total.
    @Test func mediaAndWallTimeAndTheTimeSavedAfterPlaysAtOneAndTwiceTheSpeed() throws {
        let (library, talk, tone) = try Self.played()
        let stats = try Self.stats(library.t)
        let feeds = try #require(stats["feeds"] as? [[String: Any]])
        #expect(feeds.map { $0["title"] as? String } == ["Talk", "Tones"])
        let (talkStats, toneStats) = (feeds[0], feeds[1])
        func seconds(_ figures: [String: Any], _ key: String) -> Double { figures[key] as? Double ?? -1 }

        let length = Double(PausedSpeech.seconds)
        let silence = length - talk[0]  // at 1×, all the media not on the device
        #expect(abs(silence - 3 * (4 - 0.45)) < 0.5, "skip silence left out \(silence) s")
        #expect(abs(seconds(talkStats, "media_seconds") - 2 * length) < 0.01)
        #expect(abs(seconds(talkStats, "wall_seconds") - (talk[0] + talk[1])) < 0.01)
        #expect(abs(seconds(talkStats, "saved_by_silence_seconds") - 2 * silence) < 0.05)
        // At 2× the media skip silence kept took half its time on the device.
        #expect(abs(talk[1] - (length - silence) / 2) < 0.05, "\(talk[1]) s at 2x")
        #expect(abs(seconds(talkStats, "saved_by_speed_seconds") - (length - silence - talk[1])) < 0.05)
        #expect(seconds(talkStats, "saved_by_intro_outro_seconds") == 0)
        #expect(talkStats["episodes"] as? Int == 1 && talkStats["finished"] as? Int == 2)

        #expect(abs(tone - 10) < 0.01)
        #expect(
            abs(seconds(toneStats, "media_seconds") - 10) < 0.01
                && abs(seconds(toneStats, "wall_seconds") - tone) < 0.01)
        #expect(seconds(toneStats, "saved_seconds") < 0.01)

        let total = try #require(stats["total"] as? [String: Any])
        #expect(abs(seconds(total, "media_seconds") - 2 * length - 10) < 0.01)
        #expect(abs(seconds(total, "saved_seconds") - (2 * length - talk[0] - talk[1])) < 0.05)
        #expect(total["episodes"] as? Int == 2 && total["finished"] as? Int == 3)
        #expect(total["feed_id"] is NSNull && total["title"] is NSNull)

        let text = try library.t.run(["stats"])
        #expect(text.status == 0 && text.stderr.isEmpty, "\(text)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let today = try #require(stats["counting_since"] as? String)
        #expect(lines.first == "Listening since \(today)")
        #expect(
            lines.dropFirst().first?.hasPrefix("FEED   EPISODES  FINISHED  MEDIA  WALL  SPEED  SILENCE  INTRO/OUTRO")
                == true)
        #expect(lines.last?.hasPrefix("Total  2         3         0:42") == true, "\(lines)")
        #expect(lines.count == 5, "\(lines)")
    }

    /// `--feed` counts one feed; `--since` counts from a day on (a day before the log began
    /// counts from then, and says so); a day that is no day is a usage error.
    @Test func feedAndSinceChooseWhatIsCounted() throws {
        let (library, _, tone) = try Self.played()
        let tones = try Self.stats(library.t, ["--feed", "Tones"])
        #expect((tones["feeds"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Tones"])
        #expect(abs(((tones["total"] as? [String: Any])?["wall_seconds"] as? Double ?? 0) - tone) < 0.01)

        // The talk's plays moved to the first of November, after the log's start.
        let database = library.t.home.path + "/podcli.db"
        let update = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
            arguments: [
                database,
                "UPDATE listening_log SET day = '2026-11-01' WHERE podcast = 'Talk';"
                    + " UPDATE listening_log_start SET started_at = started_at - 86400 * 400;",
            ], environment: [:]
        ).waitUntilExit()
        #expect(update.status == 0, "\(update)")
        let all = try Self.stats(library.t)
        #expect((all["feeds"] as? [[String: Any]])?.count == 2)
        let recent = try Self.stats(library.t, ["--since", "2026-11-02"])
        #expect((recent["feeds"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Tones"])
        #expect(recent["since"] as? String == "2026-11-02")
        let november = try Self.stats(library.t, ["--since", "2026-11-01", "--feed", "Talk"])
        #expect((november["total"] as? [String: Any])?["finished"] as? Int == 2)

        let future = try library.t.run(["stats", "--since", "2999-01-01"])
        #expect(future.status == 0 && future.stdout == "Listening since 2999-01-01\nNothing played.\n", "\(future)")
        for bad in ["2026-02-30", "yesterday", "2026-1-05"] {
            let result = try library.t.run(["stats", "--since", bad])
            #expect(result.status == 64 && result.stdout.isEmpty)
            #expect(
                result.stderr.hasPrefix(
                    "podcli: invalid value '\(bad)' for '--since': expected a date, YYYY-MM-DD\n"), "\(result)")
        }
        let unknown = try library.t.run(["stats", "--feed", "Nope"])
        #expect(unknown.status != 0 && unknown.stderr.split(separator: "\n").count == 1, "\(unknown)")
    }

    /// A library upgraded to the log starts at zero and says since when it counts.
    @Test func aNewLibraryHasNothingPlayedSinceToday() throws {
        let t = try CLITestCase()
        let stats = try t.run(["stats"])
        #expect(stats.status == 0, "\(stats)")
        let lines = stats.stdout.split(separator: "\n")
        #expect(
            lines.count == 2 && lines[0].hasPrefix("Listening since 20") && lines[1] == "Nothing played.", "\(stats)")
    }
}
