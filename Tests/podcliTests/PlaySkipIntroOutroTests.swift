import Foundation
import TestSupport
import Testing

/// `skip-intro` and `skip-outro` (issue 24), judged on what reaches the ALSA file tap: ffmpeg's
/// own decode of a 12 s file that is a 300 Hz tone for its first 5 s and 1,000 Hz after, and the
/// pitch of the capture measured with the tests' FFT.
@Suite(.requires(TestEnvironment.has("/usr/bin/ffmpeg"), "needs ffmpeg"))
struct PlaySkipIntroOutroTests {
    static let second = 44_100 * 4

    /// The 12 s file, fetched; its number, and ffmpeg's decode of it.
    static func episode(in library: PlayCommandTests.Library) throws -> (id: String, reference: Data) {
        let file = library.captures.appending("intro.flac")
        try AudioFixtures.runFFmpeg([
            "-f", "lavfi", "-i",
            "aevalsrc=if(lt(t\\,5)\\,0.3*sin(2*PI*300*t)\\,0.3*sin(2*PI*1000*t)):s=44100:d=12", "-ac", "2", "-c:a",
            "flac",
            "-sample_fmt", "s16", file.path,
        ])
        let id = try PlaySpeedTests.fetch(try Data(contentsOf: file), named: "intro.flac", into: library.t)
        return (id, try AudioFixtures.reference(file))
    }

    /// How `capture` differs from `expected` (nil: byte for byte the same), in a few words: a
    /// failing `==` of two captures in `#expect` has Swift Testing diff megabytes, for minutes.
    static func mismatch(_ capture: Data, _ expected: Data) -> String? {
        guard capture != expected else { return nil }
        let first =
            zip(capture, expected).enumerated().first { $1.0 != $1.1 }?.offset ?? min(capture.count, expected.count)
        return "\(capture.count) bytes, not \(expected.count); first difference at frame \(first / 4)"
    }

    static func pitch(_ capture: Data, at second: Double = 0) -> Double {
        Spectrum.dominantFrequency(
            PCMComparison.samples(capture), channels: 2, sampleRate: 44_100, offset: Int(second * 44_100)) ?? 0
    }

    /// From its beginning the episode starts at 5 s: the first frame captured is the file's
    /// frame at 5 s, and the sound is the 1,000 Hz part. `--from 0` plays the intro; a position
    /// saved is resumed as it is.
    @Test func skipIntroStartsPastTheIntroOnlyFromTheBeginning() throws {
        let library = try PlayCommandTests.Library()
        let (id, reference) = try Self.episode(in: library)
        #expect(try library.t.run(["config", "set", "skip-intro", "5"]).status == 0)

        let play = try library.play([id], device: library.device("intro"))
        #expect(play.status == 0, "\(play)")
        #expect(play.stdout.hasPrefix("Playing #\(id) intro from 0:05 of 0:12\n"), "\(play.stdout)")
        let capture = try library.captured("intro")
        #expect(Self.mismatch(capture, reference.dropFirst(5 * Self.second)) == nil)
        #expect(abs(Self.pitch(capture) - 1_000) < 10, "\(Self.pitch(capture)) Hz at the start")
        #expect(try library.t.show(id)["played"] as? Bool == true)

        let from = try library.play([id, "--from", "0"], device: library.device("from"))
        #expect(from.status == 0, "\(from)")
        let whole = try library.captured("from")
        #expect(Self.mismatch(whole, reference) == nil)
        #expect(abs(Self.pitch(whole) - 300) < 10, "\(Self.pitch(whole)) Hz at the start")

        // Played, so from the beginning again: past the intro for 2 s, then resumed at 7 s.
        #expect(try library.play([id, "--for", "2"], device: library.device("part")).status == 0)
        #expect(
            Self.mismatch(try library.captured("part"), reference.dropFirst(5 * Self.second).prefix(2 * Self.second))
                == nil)
        let resume = try library.play([id], device: library.device("resume"))
        #expect(resume.stdout.hasPrefix("Playing #\(id) intro from 0:07 of 0:12\n"), "\(resume.stdout)")
        #expect(Self.mismatch(try library.captured("resume"), reference.dropFirst(7 * Self.second)) == nil)
    }

    /// With skip-outro 3 the episode ends at 9 s, is marked played as at its end, and the 3 s
    /// skipped (5 more with skip-intro) are in the statistics.
    @Test func skipOutroEndsTheEpisodeEarlyAndMarksItPlayed() throws {
        let library = try PlayCommandTests.Library()
        let (id, reference) = try Self.episode(in: library)
        #expect(try library.t.run(["config", "set", "skip-outro", "3"]).status == 0)
        let play = try library.play([id], device: library.device("outro"))
        #expect(play.status == 0, "\(play)")
        #expect(play.stdout.hasSuffix("Played #\(id) intro\n"), "\(play.stdout)")
        let capture = try library.captured("outro")
        #expect(Self.mismatch(capture, reference.prefix(9 * Self.second)) == nil)
        #expect(abs(Self.pitch(capture, at: 8.5) - 1_000) < 10)
        let record = try library.t.show(id)
        #expect(record["played"] as? Bool == true && record["position"] as? Double == 0)

        #expect(try library.t.run(["config", "set", "skip-intro", "5"]).status == 0)
        #expect(try library.play([id], device: library.device("both")).status == 0)
        #expect(
            Self.mismatch(try library.captured("both"), reference.dropFirst(5 * Self.second).prefix(4 * Self.second))
                == nil)
        let total = try StatsCommandTests.stats(library.t)["total"] as? [String: Any]
        #expect(total?["saved_by_intro_outro_seconds"] as? Double == Double(3 + 8))
        #expect(total?["media_seconds"] as? Double == Double(9 + 4))
        #expect(total?["finished"] as? Int == 2)
    }

    /// An intro and an outro as long as the episode leave it whole.
    @Test func anIntroAndOutroAsLongAsTheEpisodeLeaveItWhole() throws {
        let library = try PlayCommandTests.Library()
        let (id, reference) = try Self.episode(in: library)
        #expect(try library.t.run(["config", "set", "skip-intro", "6"]).status == 0)
        #expect(try library.t.run(["config", "set", "skip-outro", "6"]).status == 0)
        #expect(try library.play([id]).status == 0)
        #expect(Self.mismatch(try library.captured(), reference) == nil)
    }
}
