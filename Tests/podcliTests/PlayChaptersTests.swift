import Foundation
import TestSupport
import Testing

/// Chapters on the running player, heard on the paced ALSA capture: an episode whose five
/// Podlove chapters each play a tone of their own (500, 1000, 1500, 2000, 2500 Hz; 2, 2, 4, 2
/// and 2 s long), so the capture says which chapter sounded when, and where a jump landed: a
/// chapter's tone lasts as long as the capture shows minus where in it playing landed.
@Suite(.requires(PlaySessionTests.paced && AudioFixtures.unavailableReason == nil, "needs pulseaudio and ffmpeg"))
struct PlayChaptersTests {
    static let tones = [500.0, 1000, 1500, 2000, 2500]
    static let lengths = [2.0, 2, 4, 2, 2]
    static var starts: [Double] { lengths.indices.map { lengths[..<$0].reduce(0, +) } }

    /// A paced player with the chaptered episode downloaded from its feed.
    struct World {
        let player: PlaySessionTests.PacedPlayer
        let id: String

        init() throws {
            player = try PlaySessionTests.PacedPlayer()
            let directory = try TemporaryDirectory(prefix: "podcli-chapters")
            let file = directory.appending("chapters.flac")
            let inputs = PlayChaptersTests.tones.indices.flatMap { index in
                [
                    "-f", "lavfi", "-i",
                    "sine=frequency=\(Int(PlayChaptersTests.tones[index])):duration=\(PlayChaptersTests.lengths[index]):sample_rate=44100",
                ]
            }
            try PlaySpeedChangeTests.Session.ffmpeg(
                inputs + ["-filter_complex", "concat=n=5:v=0:a=1,pan=stereo|c0=c0|c1=c0", file.path])
            let audio = try player.t.source("chapters.flac", data: try Data(contentsOf: file))
            let chapters = PlayChaptersTests.starts.indices.map {
                #"<psc:chapter start="\#(PlayChaptersTests.starts[$0])" title="Part \#($0 + 1)"/>"#
            }.joined()
            let rss = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:psc="http://podlove.org/simple-chapters"><channel><title>Tones</title>
                <item><title>Five tones</title><guid>tones</guid>
                <enclosure url="\(audio.url)" length="\(audio.data.count)" type="audio/flac"/>
                <psc:chapters version="1.2">\(chapters)</psc:chapters></item>
                </channel></rss>
                """
            let fetch = try player.t.run(
                ["fetch", try player.t.source("feed.xml", data: Data(rss.utf8)).url, "--download", "all"])
            guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
            id = "1"
        }

        /// Waits until the capture holds `seconds` of sound.
        func hear(_ seconds: Double) {
            #expect(waitUntil(timeout: 30) { player.heardSeconds >= seconds }, "heard \(player.heardSeconds) s")
        }

        /// The chapters each 10 ms of the capture sounded (nil: silence), once the player has exited.
        func heard() throws -> [Int?] {
            let data = try player.capture.pacedCaptured()
            let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            return stride(from: 0, to: samples.count / 2 - 441, by: 441).map {
                PlayChaptersTests.chapter(in: samples, at: $0)
            }
        }
    }

    /// Which chapter's tone a 10 ms window of interleaved stereo starting at `frame` holds: each
    /// tone is a whole number of cycles in it, so Goertzel's powers keep them apart. nil when no
    /// tone holds most of its power.
    static func chapter(in samples: [Int16], at frame: Int) -> Int? {
        let window = (0..<441).map { Double(samples[(frame + $0) * 2]) }
        let total = window.reduce(0) { $0 + $1 * $1 } * 441 / 2
        guard total > 1e6 else { return nil }
        let powers = tones.map { frequency in
            let coefficient = 2 * cos(2 * Double.pi * frequency / 44_100)
            var (previous, beforeThat) = (0.0, 0.0)
            for sample in window { (previous, beforeThat) = (sample + coefficient * previous - beforeThat, previous) }
            return previous * previous + beforeThat * beforeThat - coefficient * previous * beforeThat
        }
        let loudest = powers.indices.max { powers[$0] < powers[$1] }!
        return powers[loudest] > total * 0.5 ? loudest : nil
    }

    /// The chapters in the order they sounded, each with how long (s), merging the windows at a
    /// jump that no tone held.
    static func runs(_ heard: [Int?]) -> [(chapter: Int, seconds: Double)] {
        var runs: [(chapter: Int, seconds: Double)] = []
        for case let chapter? in heard {
            if runs.last?.chapter == chapter {
                runs[runs.count - 1].seconds += 0.01
            } else {
                runs.append((chapter, 0.01))
            }
        }
        return runs.filter { $0.seconds > 0.02 }
    }

    /// `next-chapter` 1 s into the first chapter: the second is heard from its start (its tone
    /// lasts its whole 2 s, to within 50 ms), then the third. `status` and MPRIS name the chapter.
    @Test func nextChapterLandsAtTheNextChaptersStart() throws {
        let w = try World()
        let process = try w.player.play([w.id, "--from", "0.5"])
        defer { process.kill(signal: SIGKILL) }
        w.hear(0.5)
        #expect(try w.player.t.run(["next-chapter"]).status == 0)
        #expect(
            waitUntil(timeout: 10) { ((try? w.player.status())?["chapter"] as? [String: Any])?["number"] as? Int == 2 })
        let chapter = try #require(w.player.status()["chapter"] as? [String: Any])
        #expect(
            chapter["title"] as? String == "Part 2" && chapter["start"] as? Double == 2
                && chapter["end"] as? Double == 4)
        let text = try w.player.t.run(["status"])
        #expect(text.stdout.contains("\nChapter 2: Part 2 (0:02-0:04)\n"), "\(text.stdout)")
        if PlaySessionTests.bus {
            let title = try w.player.playerctl(["metadata", "xesam:title"]).result
            #expect(title.stdout == "Five tones · Part 2\n", "\(title)")
        }
        w.hear(3.8)
        #expect(try w.player.t.run(["stop"]).status == 0)
        #expect(try process.waitUntilExit().status == 0)
        let runs = Self.runs(try w.heard())
        #expect(runs.map(\.chapter) == [0, 1, 2], "\(runs)")
        let second = try #require(runs.dropFirst().first)
        #expect(abs(second.seconds - 2) <= 0.05, "landed \(2 - second.seconds) s from the chapter's start")
    }

    /// Chapters 2 and 4 skipped, `--from` inside chapter 2: playing begins at chapter 3, jumps
    /// from its end over chapter 4 to chapter 5, and the episode ends after it, played. Neither
    /// skipped tone is ever in the capture.
    @Test func skippedChaptersAreNeverHeard() throws {
        let w = try World()
        let skip = try w.player.t.run(["chapters", w.id, "--skip", "2,4"])
        #expect(skip.status == 0, "\(skip)")
        let process = try w.player.play([w.id, "--from", "3"])
        defer { process.kill(signal: SIGKILL) }
        let result = try process.waitUntilExit(timeout: 60)
        #expect(result.status == 0, "\(result)")
        let heard = try w.heard()
        #expect(!heard.contains(1) && !heard.contains(3), "a skipped chapter sounded")
        let runs = Self.runs(heard)
        #expect(runs.map(\.chapter) == [2, 4], "\(runs)")
        #expect(runs.map { ($0.seconds * 10).rounded() / 10 } == [4, 2], "\(runs)")
        #expect(try w.player.t.show(w.id)["played"] as? Bool == true)
    }

    /// A chapter skipped while the episode plays (paused in the chapter before, so the choice
    /// comes in time whatever the load) is jumped over from then on, and unskipping it plays it.
    @Test func aChapterSkippedWhilePlayingIsNotHeard() throws {
        let w = try World()
        let process = try w.player.play([w.id, "--from", "0.5"])
        defer { process.kill(signal: SIGKILL) }
        w.hear(0.3)
        #expect(try w.player.t.run(["pause"]).status == 0)
        #expect(try w.player.t.run(["chapters", w.id, "--skip", "2"]).status == 0)
        #expect(try w.player.t.run(["resume"]).status == 0)
        #expect(
            waitUntil(timeout: 20) { ((try? w.player.status())?["chapter"] as? [String: Any])?["number"] as? Int == 3 })
        #expect(try w.player.t.run(["chapters", w.id, "--unskip", "2"]).status == 0)
        #expect(try w.player.t.run(["seek-to", "2"]).status == 0)
        w.hear(4)
        #expect(try w.player.t.run(["stop"]).status == 0)
        #expect(try process.waitUntilExit().status == 0)
        let runs = Self.runs(try w.heard())
        #expect(runs.map(\.chapter).prefix(3) == [0, 2, 1], "\(runs)")
    }

    /// `prev-chapter` within chapter 3's first 3 s goes back to chapter 2's start (its tone then
    /// lasts its whole 2 s on the capture); 3.5 s into chapter 3, to chapter 3's own start. The
    /// player is paused for each, so where it is when asked does not depend on the machine's load.
    @Test func previousChapterGoesBackToTheStartOfThisOrThePreviousChapter() throws {
        let w = try World()
        let process = try w.player.play([w.id, "--from", "5"])
        defer { process.kill(signal: SIGKILL) }
        func send(_ request: String) throws {
            let result = try w.player.t.run([request])
            #expect(result.status == 0, "\(request): \(result)")
        }
        func position() throws -> (chapter: Int?, seconds: Double) {
            let status = try w.player.status()
            return ((status["chapter"] as? [String: Any])?["number"] as? Int, status["position"] as? Double ?? 0)
        }
        w.hear(0.3)
        try send("pause")
        let early = try position()
        #expect(early.chapter == 3 && early.seconds < 7, "\(early)")
        try send("prev-chapter")
        #expect(waitUntil(timeout: 10) { (try? position())?.chapter == 2 })
        let previous = try position()
        #expect(previous.chapter == 2 && previous.seconds >= 2 && previous.seconds < 2.3, "\(previous)")
        try send("resume")
        #expect(waitUntil(timeout: 20) { (try? position())?.chapter == 3 })
        try send("pause")
        #expect(try w.player.t.run(["seek-to", "7.5"]).status == 0)
        #expect(waitUntil(timeout: 10) { (try? position())?.seconds ?? 0 >= 7.5 })
        try send("prev-chapter")
        #expect(waitUntil(timeout: 10) { (try? position())?.seconds ?? 8 < 7 })
        let back = try position()
        #expect(back.chapter == 3 && back.seconds >= 4 && back.seconds < 4.3, "\(back)")
        try send("stop")
        #expect(try process.waitUntilExit().status == 0)
        let runs = Self.runs(try w.heard())
        #expect(runs.map(\.chapter).prefix(3) == [2, 1, 2], "\(runs)")
        #expect(runs.count >= 2 && abs(runs[1].seconds - 2) <= 0.05, "\(runs)")
    }
}
