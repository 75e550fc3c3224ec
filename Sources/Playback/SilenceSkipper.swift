/// Shortens the silences of an episode (after Pocket Casts' Trim Silence and Media3's
/// `SilenceSkippingAudioProcessor`): a stretch where no sample is louder than −42 dBFS, once it
/// lasts the level's minimum, keeps a pad at each end (the last of what was said, the breath
/// before what follows) and loses its middle. The level ramps down to nothing before the cut and
/// back up after it, so the join does not click. Every frame with sound passes bit for bit.
///
/// It holds the quiet frames of a stretch until it knows whether the stretch is long enough to
/// shorten (its latency, in media frames, exactly); the frames it leaves out are media played and
/// counted in `skippedFrames`.
public final class SilenceSkipper: AudioFilter {
    /// How long a silence must be to be shortened, and what is kept of it.
    public struct Timing: Equatable, Sendable {
        /// Seconds: a silence shorter than this, or than the two pads, is kept whole.
        public var minimumSilence: Double
        /// Seconds kept at each end of a silence shortened; never 0, so a silence is never cut
        /// to nothing and the ramps have room.
        public var pad: Double

        public init(minimumSilence: Double, pad: Double) {
            self.minimumSilence = minimumSilence
            self.pad = pad
        }
    }

    /// −42 dBFS as a 16-bit sample (32,768 × 10^(−42/20)): a frame is silent when none of its
    /// samples is louder.
    public static let threshold: Int32 = 260
    /// Seconds of the ramp on each side of a cut (less when the pad is shorter).
    static let rampSeconds = 0.01

    /// Media frames left out since this filter was made (seeks and drops do not clear it): the
    /// time skip silence saved.
    public private(set) var skippedFrames = 0

    private let timing: Timing
    private var channels = 2
    /// Quiet frames in a row from which a stretch is shortened (at least the two pads and one frame).
    private var minimumFrames = 1
    private var padFrames = 1
    private var rampFrames = 1
    /// The quiet stretch going on at the end of what came in, not given out yet: the whole of it
    /// until it is long enough to shorten, its last `padFrames` from then on.
    private var held = UnsafeMutableBufferPointer<Int16>(start: nil, count: 0)
    private var heldFrames = 0
    /// Whether the quiet stretch held is being shortened: its first pad is given out, what comes
    /// until the sound returns is left out but for its last pad.
    private var shortening = false
    /// What the last call gave out, owned here until the next call.
    private var output = UnsafeMutableBufferPointer<Int16>(start: nil, count: 0)
    private var outputFrames = 0

    /// A filter with the timing of `level`; nil for `.off`, which is no filter at all (the sound
    /// then stays bit for bit the decoder's).
    public convenience init?(_ level: SilenceSkipping) {
        guard let timing = level.timing else { return nil }
        self.init(timing)
    }

    public init(_ timing: Timing) { self.timing = timing }

    deinit {
        held.deallocate()
        output.deallocate()
    }

    public func configure(_ input: AudioFormat) -> AudioFormat {
        channels = input.channels
        let rate = Double(input.sampleRate)
        padFrames = max(1, Int(timing.pad * rate))
        minimumFrames = max(Int(timing.minimumSilence * rate), 2 * padFrames + 1)
        rampFrames = max(1, min(padFrames, Int(Self.rampSeconds * rate)))
        held.deallocate()
        held = .allocate(capacity: minimumFrames * channels)
        reset()
        return input
    }

    public func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        let input = UnsafeBufferPointer(pcm.bindMemory(to: Int16.self))
        let frames = input.count / channels
        startOutput(reserving: heldFrames + frames)
        var frame = 0
        while frame < frames {
            let quiet = firstFrame(of: input, from: frame, to: frames, isQuiet: true)
            if quiet > frame {
                // Sound: the quiet stretch before it (if any) has ended.
                giveOutHeld()
                give(UnsafeBufferPointer(rebasing: input[(frame * channels)..<(quiet * channels)]))
            }
            let sound = firstFrame(of: input, from: quiet, to: frames, isQuiet: false)
            hold(UnsafeBufferPointer(rebasing: input[(quiet * channels)..<(sound * channels)]))
            frame = sound
        }
        return givenOut
    }

    /// The end of the episode: a quiet stretch held ends here, shortened like any other.
    public func drain() -> UnsafeMutableRawBufferPointer {
        startOutput(reserving: heldFrames)
        giveOutHeld()
        return givenOut
    }

    public func reset() {
        heldFrames = 0
        shortening = false
    }

    public var latency: Int { heldFrames }

    // MARK: - The quiet stretch

    /// Takes in quiet frames that go on the stretch held.
    private func hold(_ quiet: UnsafeBufferPointer<Int16>) {
        var rest = quiet[...]
        if !shortening {
            let taken = rest.prefix((minimumFrames - heldFrames) * channels)
            copy(taken, to: heldFrames * channels)
            heldFrames += taken.count / channels
            rest = rest.dropFirst(taken.count)
            guard heldFrames == minimumFrames else { return }
            // Long enough: give out its first pad, fading out, and keep its last for the return
            // of the sound; what lies between is left out.
            let start = outputFrames
            give(UnsafeBufferPointer(rebasing: held[..<(padFrames * channels)]))
            ramp(frames: (outputFrames - rampFrames)..<outputFrames, fadingIn: false)
            assert(outputFrames - start == padFrames)
            let keptFrom = (minimumFrames - padFrames) * channels
            held.baseAddress!.update(from: held.baseAddress! + keptFrom, count: padFrames * channels)
            skippedFrames += minimumFrames - 2 * padFrames
            heldFrames = padFrames
            shortening = true
        }
        guard !rest.isEmpty else { return }
        // Shortening: only the last pad of the stretch is kept.
        let count = rest.count / channels
        skippedFrames += count
        if count >= padFrames {
            copy(rest.suffix(padFrames * channels), to: 0)
        } else {
            let shift = count * channels
            held.baseAddress!.update(from: held.baseAddress! + shift, count: (padFrames - count) * channels)
            copy(rest, to: (padFrames - count) * channels)
        }
    }

    /// The quiet stretch held has ended (sound, or the end): gives it out, the kept pad fading
    /// in when the stretch was shortened.
    private func giveOutHeld() {
        guard heldFrames > 0 else { return }
        let start = outputFrames
        give(UnsafeBufferPointer(rebasing: held[..<(heldFrames * channels)]))
        if shortening { ramp(frames: start..<(start + rampFrames), fadingIn: true) }
        heldFrames = 0
        shortening = false
    }

    private func copy(_ samples: Slice<UnsafeBufferPointer<Int16>>, to offset: Int) {
        guard !samples.isEmpty else { return }
        (held.baseAddress! + offset).update(from: samples.base.baseAddress! + samples.startIndex, count: samples.count)
    }

    /// The first frame from `start` on (before `end`) that is quiet, or not; `end` if none is.
    private func firstFrame(of pcm: UnsafeBufferPointer<Int16>, from start: Int, to end: Int, isQuiet: Bool) -> Int {
        guard let samples = pcm.baseAddress else { return end }
        var index = start * channels
        for frame in start..<end {
            var loud = false
            for _ in 0..<channels {
                loud = loud || abs(Int32(samples[index])) > Self.threshold
                index += 1
            }
            if loud != isQuiet { return frame }
        }
        return end
    }

    // MARK: - What is given out

    private func startOutput(reserving frames: Int) {
        if output.count < frames * channels {
            output.deallocate()
            output = .allocate(capacity: frames * channels)
        }
        outputFrames = 0
    }

    private func give(_ samples: UnsafeBufferPointer<Int16>) {
        guard !samples.isEmpty else { return }
        (output.baseAddress! + outputFrames * channels).update(from: samples.baseAddress!, count: samples.count)
        outputFrames += samples.count / channels
    }

    /// A straight ramp over `frames` of the output, from nothing up to the level (fading in) or
    /// from the level down to nothing: the frame at the cut is silent, the ones beside it nearly.
    private func ramp(frames: Range<Int>, fadingIn: Bool) {
        let steps = Int32(frames.count)
        for (step, frame) in frames.enumerated() {
            let gain = fadingIn ? Int32(step) : steps - 1 - Int32(step)
            for index in (frame * channels)..<((frame + 1) * channels) {
                output[index] = Int16(Int32(output[index]) * gain / steps)
            }
        }
    }

    private var givenOut: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(output)[..<(outputFrames * channels * 2)])
    }
}

extension SilenceSkipping {
    /// Pocket Casts' Trim Silence levels: a silence of at least 416, 300 or 83 ms keeps 291, 225
    /// or 20 ms at each end (Pocket Casts keeps nothing at its most aggressive; here a silence is
    /// never cut to nothing). A silence shorter than its two pads has nothing to lose, so mild
    /// and medium shorten only those longer than 582 and 450 ms.
    public var timing: SilenceSkipper.Timing? {
        switch self {
        case .off: nil
        case .mild: .init(minimumSilence: 0.416, pad: 0.291)
        case .medium: .init(minimumSilence: 0.300, pad: 0.225)
        case .aggressive: .init(minimumSilence: 0.083, pad: 0.020)
        }
    }
}
