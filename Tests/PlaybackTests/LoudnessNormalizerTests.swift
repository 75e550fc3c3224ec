import Foundation
import TestSupport
import Testing

@testable import Playback

/// Loudness normalisation while playing: episodes at −27 and −11 LUFS come out of the player at
/// −16 ± 1 LUFS with true peaks at most −1 dBTP, as `ffmpeg -af ebur128=peak=true` reads what the
/// device received; with a measurement from the start, without one after the first minute, with
/// no pumping.
@Suite(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct LoudnessNormalizerTests {
    static let target = -16.0

    /// Plays `episode` through the player with the normalizer to an ALSA file capture; returns
    /// the capture and the normalizer.
    static func play(_ episode: LoudnessEpisodes, measured: Loudness?) throws -> (
        capture: PlayerTests.Capture, normalizer: LoudnessNormalizer
    ) {
        let capture = try PlayerTests.Capture()
        let decoder = try AudioDecoders.open(path: try episode.url().path)
        let output = try ALSAOutput(device: capture.device, format: decoder.format)
        let normalizer = LoudnessNormalizer(targetLUFS: target, measured: measured)
        let player = Player(
            decoder: decoder, device: AudioDevice(name: capture.device) { _, _ in output }, commands: CommandQueue(),
            engine: PlaybackEngine(), limit: nil, filters: [normalizer])
        #expect(try player.play { _ in } == .endOfEpisode)
        // The limiter's look-ahead drained at the end: every frame heard, once.
        #expect(player.position == decoder.frameCount)
        #expect(try capture.recorded().count == (decoder.frameCount ?? 0) * decoder.format.bytesPerFrame)
        return (capture, normalizer)
    }

    /// What `ffmpeg` measured for the episode: the measurement a download would have stored.
    static func measurement(of episode: LoudnessEpisodes) throws -> Loudness {
        let reading = try LoudnessEpisodes.measure(try episode.url())
        return Loudness(integratedLUFS: reading.integratedLUFS, truePeakDBTP: reading.truePeakDBTP)
    }

    /// Measured after its download, the whole episode plays at the target, its peaks limited.
    @Test(arguments: [LoudnessEpisodes.quiet, .loud])
    func aMeasuredEpisodePlaysAtTheTarget(episode: LoudnessEpisodes) throws {
        let measured = try Self.measurement(of: episode)
        #expect(abs(measured.integratedLUFS - (episode == .quiet ? -27 : -11)) <= 0.5, "the fixture: \(measured)")
        let played = try Self.play(episode, measured: measured)
        let heard = try LoudnessEpisodes.measure(raw: URL(fileURLWithPath: played.capture.path))
        #expect(abs(heard.integratedLUFS - Self.target) <= 1, "\(heard.integratedLUFS) LUFS")
        #expect(heard.truePeakDBTP <= -1, "\(heard.truePeakDBTP) dBTP")
    }

    /// Not measured (a stream): after its first minute the episode plays at the target, its peaks
    /// limited all along.
    @Test(arguments: [LoudnessEpisodes.quiet, .loud])
    func anEpisodeNotMeasuredReachesTheTargetWithinAMinute(episode: LoudnessEpisodes) throws {
        let played = try Self.play(episode, measured: nil)
        let capture = URL(fileURLWithPath: played.capture.path)
        let afterAMinute = try LoudnessEpisodes.measure(raw: capture, from: 60)
        #expect(abs(afterAMinute.integratedLUFS - Self.target) <= 1, "\(afterAMinute.integratedLUFS) LUFS")
        let whole = try LoudnessEpisodes.measure(raw: capture)
        #expect(whole.truePeakDBTP <= -1, "\(whole.truePeakDBTP) dBTP")
        guard episode == .loud else { return }
        // Its peaks 5 dB under the ceiling, the limiter leaves it alone: what the short-term
        // loudness heard gains over the episode's own is the gain, which holds still once it has
        // converged (no pumping with the syllables and pauses).
        let source = try LoudnessEpisodes.measure(try episode.url())
        let lift = zip(whole.shortTerm, source.shortTerm).filter { $0.0.time >= 30 }.map { $0.0.lufs - $0.1.lufs }
        #expect(lift.count > 400)
        #expect(
            (lift.max() ?? 0) - (lift.min() ?? 0) <= 0.5,
            "gain after 30 s between \(lift.min() ?? 0) and \(lift.max() ?? 0) dB")
    }

    /// A steady noise not measured: once the gain has reached it, the loudness heard varies by
    /// less than 1 LU (no pumping), at the target.
    @Test func aSteadyLevelStaysSteady() throws {
        let played = try Self.play(.steady, measured: nil)
        let heard = try LoudnessEpisodes.measure(raw: URL(fileURLWithPath: played.capture.path))
        let settled = heard.shortTerm.filter { $0.time >= 20 }.map(\.lufs)
        #expect(settled.count > 150)
        let (low, high) = (settled.min() ?? 0, settled.max() ?? 0)
        #expect(high - low < 1, "short-term \(low) to \(high) LUFS")
        #expect(abs((settled.last ?? 0) - Self.target) <= 1)
    }

    /// A seek through the player (20 s in, back to 0:05) forgets what the limiter held, not the
    /// gain: what is heard just after it is already lifted by the gain reached, not at 0 dB again.
    @Test func aSeekKeepsTheGainReached() throws {
        let capture = try PlayerTests.Capture()
        let file = try LoudnessEpisodes.steady.url()
        let decoder = try AudioDecoders.open(path: file.path)
        let output = PlayerTests.WatchedOutput(try ALSAOutput(device: capture.device, format: decoder.format))
        let commands = CommandQueue()
        var seekedAt: Int?
        output.onWrite = { output in
            guard seekedAt == nil, output.framesWritten >= 20 * LoudnessEpisodes.sampleRate else { return }
            seekedAt = output.framesWritten
            commands.post(.setPosition(5))
        }
        let normalizer = LoudnessNormalizer(targetLUFS: Self.target, measured: nil)
        let player = Player(
            decoder: decoder, device: AudioDevice(name: capture.device) { _, _ in output }, commands: commands,
            engine: PlaybackEngine(), limit: nil, filters: [normalizer])
        #expect(try player.play { _ in } == .endOfEpisode)
        let seek = try #require(seekedAt)
        // 1.5 s from 0.1 s after the seek, heard and as published.
        let (skip, length) = (4_410, 66_150)
        let heard = try Self.samples(capture.recorded()).dropFirst(seek + skip).prefix(length)
        let published = try Self.samples(AudioFixtures.reference(file)).dropFirst(5 * 44_100 + skip).prefix(length)
        let lift = 20 * log10(Self.rms(heard) / Self.rms(published))
        #expect(normalizer.gainDB > 9)
        #expect(abs(lift - normalizer.gainDB) < 0.5, "lifted \(lift) dB after the seek, \(normalizer.gainDB) dB before")
    }

    static func samples(_ data: Data) -> [Int16] { data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } }

    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// A −40 LUFS episode is lifted by 12 dB, not 24: it plays at −28 LUFS.
    @Test func theGainIsAtMost12dB() throws {
        let played = try Self.play(.veryQuiet, measured: try Self.measurement(of: .veryQuiet))
        let heard = try LoudnessEpisodes.measure(raw: URL(fileURLWithPath: played.capture.path))
        #expect(abs(heard.integratedLUFS - (-28)) <= 0.5, "\(heard.integratedLUFS) LUFS")
        #expect(played.normalizer.gainDB == 12)
    }
}

/// The gain of an episode measured while it plays, fed straight to the filter.
struct LoudnessNormalizerGainTests {
    /// A 440 Hz tone at `amplitude` of full scale, `seconds` long, mono 44.1 kHz.
    static func tone(seconds: Double, amplitude: Double) -> [Int16] {
        (0..<Int(seconds * 44_100)).map { Int16(amplitude * 32_767 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
    }

    /// Feeds `samples` in chunks of 2,048 frames; returns the gain after each.
    static func gains(_ normalizer: LoudnessNormalizer, _ samples: [Int16]) -> [Double] {
        var samples = samples
        return samples.withUnsafeMutableBytes { bytes in
            stride(from: 0, to: bytes.count, by: 4_096).map { start in
                _ = normalizer.process(
                    UnsafeMutableRawBufferPointer(rebasing: bytes[start..<min(start + 4_096, bytes.count)]))
                return normalizer.gainDB
            }
        }
    }

    /// A quiet tone (about −33 LUFS) not measured: the gain stays at 0 dB for the first seconds,
    /// then rises by at most 2 dB a second (no step) to the 12 dB cap, within 12 s.
    @Test func theGainMovesSlowlyToWhatTheLoudnessSoFarAsks() {
        let normalizer = LoudnessNormalizer(targetLUFS: -16, measured: nil)
        _ = normalizer.configure(AudioFormat(sampleRate: 44_100, channels: 1))
        let gains = Self.gains(normalizer, Self.tone(seconds: 15, amplitude: 0.02))
        let chunk = 2_048.0 / 44_100
        #expect(gains.prefix(Int(2.9 / chunk)).allSatisfy { $0 == 0 })
        #expect(zip(gains, gains.dropFirst()).allSatisfy { abs($1 - $0) <= 2 * chunk + 1e-9 })
        #expect(gains[Int(12 / chunk)] == 12)
    }

    /// A seek (reset) forgets the frames held, not the gain: the first frames after it are lifted.
    @Test func aSeekKeepsTheGain() {
        let normalizer = LoudnessNormalizer(targetLUFS: -16, measured: nil)
        _ = normalizer.configure(AudioFormat(sampleRate: 44_100, channels: 1))
        _ = Self.gains(normalizer, Self.tone(seconds: 12, amplitude: 0.02))
        #expect(normalizer.gainDB == 12)
        normalizer.reset()
        #expect(normalizer.latency == 0 && normalizer.gainDB == 12)
        var after = Self.tone(seconds: 0.5, amplitude: 0.02)
        let peak = after.withUnsafeMutableBytes { bytes in
            normalizer.process(bytes).bindMemory(to: Int16.self).map { abs(Int($0)) }.max() ?? 0
        }
        // 12 dB is 3.98 times.
        #expect(abs(Double(peak) / (0.02 * 32_767) - 3.98) < 0.05, "peak \(peak)")
    }
}
