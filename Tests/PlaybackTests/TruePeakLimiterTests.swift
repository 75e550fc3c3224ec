import Foundation
import TestSupport
import Testing

@testable import Playback

/// The limiter behind the loudness gain: exact latency, nothing lost at the end, and the true
/// peak (between samples) kept under the ceiling, as `ffmpeg -af ebur128=peak=true` reads it.
struct TruePeakLimiterTests {
    /// A normalizer whose gain is 0 dB: only its limiter acts.
    static func limiterOnly(channels: Int) -> LoudnessNormalizer {
        let normalizer = LoudnessNormalizer(
            targetLUFS: -16, measured: Loudness(integratedLUFS: -16, truePeakDBTP: 0))
        _ = normalizer.configure(AudioFormat(sampleRate: 44_100, channels: channels))
        return normalizer
    }

    /// Below the ceiling the frames come out unchanged, `delay` frames late; every call gives out
    /// what it took in plus what it held before less what it holds after (the player's count of
    /// media frames), and the drain gives out the rest.
    @Test func framesUnderTheCeilingComeOutUnchangedAndTheLatencyIsExact() {
        let normalizer = Self.limiterOnly(channels: 2)
        let input = (0..<40_000).map { Int16(truncatingIfNeeded: ($0 &* 7_919) % 20_000 - 10_000) }
        var out: [Int16] = []
        var start = 0
        for size in [1, 7, 300, 2_048, 5, 4_096, 10_000] + Array(repeating: 1_000, count: 20)
        where start < input.count / 2 {
            let frames = min(size, input.count / 2 - start)
            let before = normalizer.latency
            var chunk = Array(input[(start * 2)..<((start + frames) * 2)])
            let given = chunk.withUnsafeMutableBytes { Array(normalizer.process($0).bindMemory(to: Int16.self)) }
            #expect(given.count / 2 == frames + before - normalizer.latency)
            out += given
            start += frames
        }
        #expect(normalizer.latency == 220 + 11)
        out += Array(normalizer.drain().bindMemory(to: Int16.self))
        #expect(normalizer.latency == 0)
        #expect(out == input)
    }

    /// A full-scale tone at a quarter of the rate, sampled 45° off its peaks: its samples reach
    /// only 0.71 of its true peak (+2.5 dBTP here). Limited, its true peak is under −1 dBTP.
    @Test(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
    func theTruePeakIsLimitedNotOnlyTheSamples() throws {
        let normalizer = Self.limiterOnly(channels: 1)
        let amplitude = 32_000 / sin(Double.pi / 4)
        var tone = (0..<88_200).map { Int16(amplitude * sin(Double.pi / 2 * Double($0) + Double.pi / 4)) }
        var out = tone.withUnsafeMutableBytes { Data(normalizer.process($0)) }
        out += Data(normalizer.drain())
        #expect(out.count == tone.count * 2)
        let directory = try TemporaryDirectory()
        let file = try directory.write(out, to: "limited.raw")
        let original = try directory.write(tone.withUnsafeBytes { Data($0) }, to: "tone.raw")
        #expect(try LoudnessEpisodes.measure(raw: original).truePeakDBTP >= 2)
        let heard = try LoudnessEpisodes.measure(raw: file)
        #expect(heard.truePeakDBTP <= -1, "\(heard.truePeakDBTP) dBTP")
        #expect(heard.truePeakDBTP >= -2.5, "limited more than needed: \(heard.truePeakDBTP) dBTP")
    }
}
