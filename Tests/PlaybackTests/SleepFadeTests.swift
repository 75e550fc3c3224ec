import Testing

@testable import Playback

/// The sleep timer's fade as a function of the device frame (1 kHz mono here, so frames read as
/// milliseconds), and what it does to samples.
@Suite struct SleepFadeTests {
    static func fade() -> SleepFade {
        let fade = SleepFade()
        _ = fade.configure(AudioFormat(sampleRate: 1_000, channels: 1))
        return fade
    }

    /// `frames` of a constant sample through the fade, from its `nextFrame` on.
    static func run(_ fade: SleepFade, frames: Int, sample: Int16 = 10_000) -> [Int16] {
        var samples = [Int16](repeating: sample, count: frames)
        samples.withUnsafeMutableBytes { _ = fade.process($0) }
        return samples
    }

    @Test func withNoTimerTheSamplesPassUntouched() {
        let fade = Self.fade()
        fade.aim(at: nil)
        #expect(Self.run(fade, frames: 5_000) == [Int16](repeating: 10_000, count: 5_000))
    }

    @Test func theLastTenSecondsFadeToSilence() {
        let fade = Self.fade()
        fade.aim(at: 60_000)
        #expect(fade.fadeStart == 50_000)
        #expect([0, 50_000, 55_000, 59_000, 60_000, 61_000].map(fade.level(at:)) == [1, 1, 0.5, 0.1, 0, 0])
        fade.nextFrame = 49_000
        let samples = Self.run(fade, frames: 12_000)
        #expect(samples[..<1_001].allSatisfy { $0 == 10_000 })
        #expect(zip(samples[1_000...], samples[1_001...]).allSatisfy { $0 >= $1 })
        #expect(samples[6_000] == 1_250, "half way: half the level, an eighth of the gain (cubic, as the volume)")
        #expect(samples[11_000...].allSatisfy { $0 == 0 })
    }

    /// Set with 4 s left, it fades over those 4 s, from where the frames written have got to.
    @Test func aTimerWithLessThanTheFadeLeftFadesOverWhatIsLeft() {
        let fade = Self.fade()
        fade.nextFrame = 7_000
        fade.aim(at: 11_000)
        #expect(fade.fadeStart == 7_000)
        #expect([7_000, 9_000, 11_000].map(fade.level(at:)) == [1, 0.5, 0])
    }

    /// Shortened during the fade, or going on in the next episode (a new player, its frames
    /// counted from 0), the fade goes on down from where the sound is, never up first.
    @Test func aShorterTimerDuringTheFadeGoesOnFromWhereTheSoundIs() {
        let next = SleepFade(level: 0.4)
        _ = next.configure(AudioFormat(sampleRate: 1_000, channels: 1))
        next.aim(at: 2_000)
        #expect([0, 1_000, 2_000].map(next.level(at:)) == [0.4, 0.2, 0])
        #expect(next.fadeStart == -3_000, "it began 3 s before this episode")

        let fade = Self.fade()
        fade.aim(at: 60_000)
        fade.nextFrame = 55_000
        fade.aim(at: 56_000)
        #expect([55_000, 55_500, 56_000].map(fade.level(at:)) == [0.5, 0.25, 0])
    }

    /// Extended (or turned off) during the fade, the sound comes back up within a second, with
    /// no step: from one frame to the next the level changes no more than the rise allows.
    @Test(arguments: [nil, 400_000])
    func callingTheFadeOffBringsTheSoundBackSmoothly(deadline: Int?) {
        let fade = Self.fade()
        fade.aim(at: 10_000)
        fade.nextFrame = 6_000
        #expect(fade.level(at: 6_000) == 0.4)
        fade.aim(at: deadline)
        let levels = (6_000...8_000).map(fade.level(at:))
        #expect(levels.first == 0.4 && levels[600] == 1 && levels.last == 1)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $1 >= $0 && $1 - $0 <= 0.001 + 1e-9 })
    }
}
