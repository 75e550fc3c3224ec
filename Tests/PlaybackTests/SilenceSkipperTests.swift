import Foundation
import TestSupport
import Testing

@testable import Playback

/// Skip silence on speech-like sound (tone bursts) with pauses that hold a low hum (−50 dBFS,
/// under the −42 dBFS threshold, as a room's tone is): each pause long enough loses its middle,
/// the sound passes bit for bit, the cuts do not click, and every media frame is accounted for.
struct SilenceSkipperTests {
    static let rate = 44_100
    static let channels = 2

    /// A piece of the test signal: sound (a 300 Hz tone whose level moves as a voice's does,
    /// never below −16 dBFS at its peaks) or a pause (a 93 Hz hum at −50 dBFS).
    enum Piece {
        case sound(Double)
        case pause(Double)
    }

    /// Interleaved stereo at 44.1 kHz; the phase runs on across pieces, as in a recording.
    static func signal(_ pieces: [Piece]) -> [Int16] {
        var samples: [Int16] = []
        samples.reserveCapacity(
            pieces.reduce(0) { total, piece in
                switch piece {
                case .sound(let seconds), .pause(let seconds): total + frames(seconds) * channels
                }
            })
        var frame = 0
        for piece in pieces {
            let (seconds, isSound) =
                switch piece {
                case .sound(let seconds): (seconds, true)
                case .pause(let seconds): (seconds, false)
                }
            for _ in 0..<Int(seconds * Double(rate)) {
                let t = Double(frame) / Double(rate)
                let value =
                    isSound
                    ? 9_830 * sin(2 * .pi * 300 * t) * (0.6 + 0.4 * sin(2 * .pi * 4 * t))
                    : 98 * sin(2 * .pi * 93 * t)
                samples.append(Int16(value.rounded()))
                samples.append(Int16((value * 0.8).rounded()))
                frame += 1
            }
        }
        return samples
    }

    /// What `skipper` gives out for `input` taken in pieces of `chunk` frames, then drained;
    /// after every call, each frame taken in is given out, left out or held, and the latency is
    /// what is held.
    static func run(_ skipper: SilenceSkipper, _ input: [Int16], chunk: Int = 2_048) -> [Int16] {
        _ = skipper.configure(AudioFormat(sampleRate: rate, channels: channels))
        var output: [Int16] = []
        var taken = 0
        func check() {
            #expect(taken == output.count / channels + skipper.skippedFrames + skipper.latency)
        }
        for start in stride(from: 0, to: input.count, by: chunk * channels) {
            var piece = Array(input[start..<min(input.count, start + chunk * channels)])
            taken += piece.count / channels
            output += piece.withUnsafeMutableBytes { Array(skipper.process($0).bindMemory(to: Int16.self)) }
            check()
        }
        output += Array(skipper.drain().bindMemory(to: Int16.self))
        check()
        #expect(skipper.latency == 0)
        return output
    }

    /// The frames of `samples` where no sample is louder than the threshold, in stretches.
    static func quietStretches(_ samples: [Int16], channels: Int = channels, atLeast frames: Int = 441)
        -> [Range<Int>]
    {
        var stretches: [Range<Int>] = []
        var start: Int?
        let count = samples.count / channels
        for frame in 0...count {
            var quiet = frame < count
            for channel in 0..<channels where quiet {
                quiet = abs(Int32(samples[frame * channels + channel])) <= SilenceSkipper.threshold
            }
            if quiet, start == nil { start = frame }
            if !quiet, let first = start {
                if frame - first >= frames { stretches.append(first..<frame) }
                start = nil
            }
        }
        return stretches
    }

    /// The sound between the quiet stretches (of 10 ms or more), sample for sample.
    static func sounds(_ samples: [Int16], channels: Int = channels) -> [ArraySlice<Int16>] {
        var sounds: [ArraySlice<Int16>] = []
        var from = 0
        for stretch in quietStretches(samples, channels: channels) {
            if stretch.lowerBound > from { sounds.append(samples[(from * channels)..<(stretch.lowerBound * channels)]) }
            from = stretch.upperBound
        }
        if from * channels < samples.count { sounds.append(samples[(from * channels)...]) }
        return sounds
    }

    /// The largest step from one sample to the next of a channel within the quiet stretches
    /// (but their first and last millisecond, where the sound ends or starts): a cut that does
    /// not ramp shows as a step of up to twice the hum's level.
    static func largestQuietStep(_ samples: [Int16], channels: Int = channels) -> Int {
        var largest = 0
        let edge = rate / 1_000
        for stretch in quietStretches(samples, channels: channels) {
            for frame in (stretch.lowerBound + edge + 1)..<(stretch.upperBound - edge) {
                for channel in 0..<channels {
                    let step = Int(samples[frame * channels + channel]) - Int(samples[(frame - 1) * channels + channel])
                    largest = max(largest, abs(step))
                }
            }
        }
        return largest
    }

    static func frames(_ seconds: Double) -> Int { Int(seconds * Double(rate)) }

    /// `off` is no filter at all: nothing to put in the sound path.
    @Test func offIsNoFilter() {
        #expect(SilenceSkipper(.off) == nil)
        #expect(SilenceSkipping.allCases.filter { SilenceSkipper($0) != nil } == [.mild, .medium, .aggressive])
    }

    /// 4 s pauses between bursts: each keeps exactly its two pads, the bursts come out whole and
    /// bit for bit, and what was left out is counted to the frame.
    @Test(arguments: [SilenceSkipping.mild, .medium, .aggressive])
    func longPausesKeepAPadAtEachEndAndLoseTheirMiddle(_ level: SilenceSkipping) throws {
        let input = Self.signal([.sound(0.5), .pause(4), .sound(0.7), .pause(4), .sound(0.3)])
        let skipper = try #require(SilenceSkipper(level))
        let output = Self.run(skipper, input)
        let pad = Self.frames(try #require(level.timing).pad)
        let pauses = Self.quietStretches(input)
        #expect(pauses.count == 2)
        #expect(Self.quietStretches(output).map(\.count) == [2 * pad, 2 * pad])
        #expect(Self.sounds(output) == Self.sounds(input))
        #expect(Self.sounds(input).count == 3)
        #expect(skipper.skippedFrames == pauses.reduce(0) { $0 + $1.count - 2 * pad })
        #expect(output.count / Self.channels == input.count / Self.channels - skipper.skippedFrames)
    }

    /// A pause shorter than a level's minimum (or than its two pads) is heard whole; a longer
    /// one is shortened to the two pads. A 200 ms pause survives mild and medium, not aggressive.
    @Test(arguments: [
        (SilenceSkipping.mild, 0.2, false), (.mild, 0.55, false), (.mild, 0.7, true),
        (.medium, 0.2, false), (.medium, 0.42, false), (.medium, 0.5, true),
        (.aggressive, 0.07, false), (.aggressive, 0.2, true),
    ])
    func eachLevelKeepsPausesShorterThanItsMinimum(level: SilenceSkipping, pause: Double, shortened: Bool) throws {
        let input = Self.signal([.sound(0.3), .pause(pause), .sound(0.3)])
        let skipper = try #require(SilenceSkipper(level))
        let output = Self.run(skipper, input)
        if shortened {
            let pad = Self.frames(try #require(level.timing).pad)
            #expect(Self.quietStretches(output).map(\.count) == [2 * pad])
            #expect(Self.sounds(output) == Self.sounds(input))
        } else {
            #expect(output == input)
            #expect(skipper.skippedFrames == 0)
        }
    }

    /// The level ramps down to nothing before each cut and up after it: within what is left of
    /// the pauses, no step from one sample to the next is larger than the hum's own (with a
    /// little for the ramp itself); a cut without a ramp joins two points of the hum.
    @Test(arguments: [SilenceSkipping.mild, .medium, .aggressive])
    func theCutsDoNotClick(_ level: SilenceSkipping) throws {
        let input = Self.signal([
            .sound(0.5), .pause(4), .sound(0.5), .pause(1.3), .sound(0.5), .pause(2.71), .sound(0.2),
        ])
        let output = Self.run(try #require(SilenceSkipper(level)), input)
        let own = Self.largestQuietStep(input)
        #expect(own > 0 && own < 5)
        #expect(Self.largestQuietStep(output) <= own + 1)
    }

    /// Pieces of 1, 7, 2,048 frames or all at once: the same sound, the same frames left out.
    @Test func theOutputDoesNotDependOnHowTheInputIsCut() throws {
        let input = Self.signal([.pause(0.9), .sound(0.2), .pause(0.1), .sound(0.4), .pause(1.5), .sound(0.1)])
        var outputs: [[Int16]] = []
        var skipped: [Int] = []
        for chunk in [1, 7, 2_048, input.count / Self.channels] {
            let skipper = try #require(SilenceSkipper(.medium))
            outputs.append(Self.run(skipper, input, chunk: chunk))
            skipped.append(skipper.skippedFrames)
        }
        #expect(Set(outputs).count == 1)
        #expect(Set(skipped).count == 1 && skipped[0] > 0)
    }

    /// A seek: what was held is forgotten, and the sound after it comes out as it was taken in,
    /// with nothing of before.
    @Test func aResetForgetsTheQuietStretchHeld() throws {
        let skipper = try #require(SilenceSkipper(.mild))
        _ = skipper.configure(AudioFormat(sampleRate: Self.rate, channels: Self.channels))
        var before = Self.signal([.sound(0.2), .pause(0.3)])
        _ = before.withUnsafeMutableBytes { skipper.process($0) }
        // The pause, and the end of the tone's last wave, under the threshold.
        #expect((Self.frames(0.3)..<Self.frames(0.301)).contains(skipper.latency))
        skipper.reset()
        #expect(skipper.latency == 0)
        var after = Self.signal([.sound(0.1)])
        let expected = after
        let out = after.withUnsafeMutableBytes { Array(skipper.process($0).bindMemory(to: Int16.self)) }
        #expect(out == expected)
        #expect(skipper.drain().isEmpty)
    }

    /// A pause at the end of the episode is shortened like any other, and drained.
    @Test func aPauseAtTheEndIsShortenedAndDrained() throws {
        let input = Self.signal([.sound(0.4), .pause(3)])
        let skipper = try #require(SilenceSkipper(.medium))
        let output = Self.run(skipper, input)
        let pad = Self.frames(0.225)
        #expect(Self.quietStretches(output).map(\.count) == [2 * pad])
        #expect(Self.sounds(output) == Self.sounds(input))
    }
}

/// Skip silence through the player, on an ALSA `file` capture, with `PausedSpeech`: 1 s of
/// speech-like sound every 5 s, 4 s pauses of hum between.
@Suite(.enabled(if: AudioFixtures.unavailableReason == nil, "ffmpeg is not installed"))
struct SilenceSkipperPlayerTests {
    static var frameCount: Int { PausedSpeech.seconds * PausedSpeech.sampleRate }

    /// The file, and `ffmpeg`'s own decoding of it.
    static func pausedSpeech(in directory: TemporaryDirectory) throws -> (file: URL, samples: [Int16]) {
        let file = directory.appending("paused-speech.flac")
        try PausedSpeech.make(at: file)
        return (file, PCMComparison.samples(try AudioFixtures.reference(file)))
    }

    /// Plays `file` with skip silence at `level` on a capture device; what was heard, and the player.
    static func play(_ file: URL, _ level: SilenceSkipping, limit: Int? = nil) throws
        -> (reason: StopReason, heard: [Int16], player: Player, skipper: SilenceSkipper)
    {
        let capture = try PlayerTests.Capture()
        let decoder = try AudioDecoders.open(path: file.path)
        let output = try ALSAOutput(device: capture.device, format: decoder.format)
        let skipper = try #require(SilenceSkipper(level))
        let player = Player(
            decoder: decoder, device: AudioDevice(name: capture.device) { _, _ in output }, commands: CommandQueue(),
            engine: PlaybackEngine(), limit: limit, filters: [skipper])
        let reason = try player.play { _ in }
        return (reason, PCMComparison.samples(try capture.recorded()), player, skipper)
    }

    /// Each 4 s pause comes out as its two pads (450 ms), every burst whole and bit for bit, no
    /// click at the cuts; the position at the end is the file's length in media time, and the
    /// frames skipped are what the device did not get.
    @Test func aFileWithLongPausesLosesMostOfThemAndNoneOfItsSound() throws {
        let directory = try TemporaryDirectory()
        let (file, input) = try Self.pausedSpeech(in: directory)
        #expect(input.count == Self.frameCount * 2)
        let played = try Self.play(file, .medium)
        #expect(played.reason == .endOfEpisode)

        let pad = SilenceSkipperTests.frames(0.225)
        let pauses = SilenceSkipperTests.quietStretches(input)
        #expect(pauses.map { abs($0.count - SilenceSkipperTests.frames(4)) < 441 } == [true, true, true])
        #expect(SilenceSkipperTests.quietStretches(played.heard).map(\.count) == [2 * pad, 2 * pad, 2 * pad])
        let bursts = SilenceSkipperTests.sounds(input)
        #expect(bursts.count == 4)
        #expect(SilenceSkipperTests.sounds(played.heard) == bursts)
        #expect(SilenceSkipperTests.largestQuietStep(played.heard) <= SilenceSkipperTests.largestQuietStep(input) + 1)

        #expect(played.player.position == Self.frameCount)
        #expect(played.player.clock.mediaFramesPlayed == Self.frameCount)
        #expect(played.player.clock.deviceFramesPlayed == played.heard.count / 2)
        #expect(played.skipper.skippedFrames == Self.frameCount - played.heard.count / 2)
        #expect(played.skipper.skippedFrames == pauses.reduce(0) { $0 + $1.count - 2 * pad })
    }

    /// `--for 7`: 7 s of media played, the pause it ends in shortened, whatever the skipper still
    /// held when the limit came counted once.
    @Test func playingForADurationCountsMediaTime() throws {
        let directory = try TemporaryDirectory()
        let (file, input) = try Self.pausedSpeech(in: directory)
        let limit = 7 * SilenceSkipperTests.rate
        let played = try Self.play(file, .medium, limit: limit)
        #expect(played.reason == .limitReached)
        #expect(played.player.position == limit)
        #expect(played.player.clock.mediaFramesPlayed == limit)
        #expect(played.skipper.skippedFrames == limit - played.heard.count / 2)
        let pad = SilenceSkipperTests.frames(0.225)
        #expect(SilenceSkipperTests.quietStretches(played.heard).map(\.count) == [2 * pad, 2 * pad])
        #expect(SilenceSkipperTests.sounds(played.heard) == SilenceSkipperTests.sounds(Array(input[..<(limit * 2)])))
    }
}
