import Foundation
import TestSupport
import Testing

@testable import Playback

/// Debian's libsonic is the 2015 release (0.2.0): at the extremes of speed (0.5×, 3×), of input
/// length (a single frame, a few, less than one of the player's chunks) and of format (mono and
/// stereo, 8 to 48 kHz), what comes out is the input's length over the speed, at its pitch, and
/// the media it accounts for is exactly what went in.
struct SpeedChangerTests {
    /// A 441 Hz sine (440 is no whole number of cycles at 8 kHz either), at 0.5 of full scale.
    static func tone(frames: Int, sampleRate: Int, channels: Int) -> [Int16] {
        (0..<(frames * channels)).map { index in
            let t = Double(index / channels) / Double(sampleRate)
            return Int16(16_384 * sin(2 * Double.pi * 441 * t))
        }
    }

    /// Runs `pcm` through a changer in the player's chunks, then drains it; returns what came out
    /// and the media frames the changer accounted for (as the player counts them).
    static func run(_ pcm: [Int16], speed: Double, format: AudioFormat) -> (out: [Int16], media: Int) {
        let changer = SpeedChanger(speed: speed)
        _ = changer.configure(format)
        var out: [Int16] = []
        var media = 0
        var input = pcm
        let chunk = Player.chunkFrames * format.channels
        input.withUnsafeMutableBytes { bytes in
            var start = 0
            while start < pcm.count {
                let end = min(start + chunk, pcm.count)
                let before = changer.latency
                let given = changer.process(UnsafeMutableRawBufferPointer(rebasing: bytes[(start * 2)..<(end * 2)]))
                #expect(changer.latency >= 0, "holds \(changer.latency) frames")
                media += (end - start) / format.channels + before - changer.latency
                out += given.bindMemory(to: Int16.self)
                start = end
            }
        }
        media += changer.latency
        out += changer.drain().bindMemory(to: Int16.self)
        #expect(changer.latency == 0)
        return (out, media)
    }

    @Test(arguments: [0.5, 3.0], [(8_000, 1), (16_000, 2), (22_050, 1), (44_100, 2), (48_000, 1), (48_000, 2)])
    func aLongToneKeepsItsPitchAndTakesItsLengthOverTheSpeed(speed: Double, format: (rate: Int, channels: Int)) {
        let frames = 3 * format.rate
        let (out, media) = Self.run(
            Self.tone(frames: frames, sampleRate: format.rate, channels: format.channels), speed: speed,
            format: AudioFormat(sampleRate: format.rate, channels: format.channels))
        #expect(media == frames)
        let expected = Double(frames) / speed
        let produced = Double(out.count / format.channels)
        #expect(abs(produced - expected) / expected < 0.02, "\(produced) frames, not \(expected)")
        let pitch = Spectrum.dominantFrequency(out, channels: format.channels, sampleRate: format.rate)
        #expect(pitch.map { abs($0 - 441) / 441 < 0.02 } == true, "pitch \(pitch ?? 0) Hz")
    }

    /// Less than a pitch period, a few frames, less than a chunk: nothing is lost or made up
    /// beyond what one pitch period libsonic works in can account for, and nothing crashes.
    @Test(arguments: [0.5, 3.0], [1, 7, 300, 1_500])
    func aShortEpisodeComesOutWhole(speed: Double, frames: Int) {
        for (rate, channels) in [(8_000, 1), (44_100, 2), (48_000, 2)] {
            let (out, media) = Self.run(
                Self.tone(frames: frames, sampleRate: rate, channels: channels), speed: speed,
                format: AudioFormat(sampleRate: rate, channels: channels))
            #expect(media == frames)
            let produced = out.count / channels
            // libsonic's longest pitch period (65 Hz) at this rate.
            let period = rate / 65
            #expect(
                abs(Double(produced) - Double(frames) / speed) <= Double(period),
                "\(frames) frames at \(speed)× (\(rate) Hz, \(channels) ch) gave \(produced)")
        }
    }
}
