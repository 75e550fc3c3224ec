#if canImport(Glibc)
    import Glibc
#endif

/// Plays an episode at a target loudness (EBU R128): the gain that takes its integrated loudness
/// to the target, at most `maximumGain`, with a true-peak limiter keeping what it gives out under
/// `ceilingDBTP`. An episode measured after its download gets that gain from its first frame; one
/// not measured (a stream, an old download) is measured as it plays, and the gain moves towards
/// what the loudness so far asks, no faster than `gainRate`: no step, no pumping.
/// Off, it is not in the chain at all (bit-identical playback).
public final class LoudnessNormalizer: AudioFilter {
    /// The most the gain lifts a quiet episode, dB: more would lift its noise floor with it.
    public static let maximumGain = 12.0
    /// The true peak EBU R128 allows a programme, dBTP.
    public static let ceilingDBTP = -1.0
    /// The limiter's own ceiling, under `ceilingDBTP`: its 4× oversampling and a meter's (FFmpeg
    /// resamples to 192 kHz with another filter) find the peaks between samples a little apart.
    static let limiterCeilingDBTP = ceilingDBTP - 0.5
    /// How fast the gain of an episode measured while it plays may change, dB per second.
    public static let gainRate = 2.0
    /// Seconds measured before that gain starts to move: a loudness over less is a guess.
    static let measuringTime = 3.0

    public let targetLUFS: Double
    /// The episode's loudness measured after its download; nil: measure it while it plays.
    public let measured: Loudness?
    /// The gain applied now, dB: kept across a seek.
    public private(set) var gainDB: Double
    private var format = AudioFormat(sampleRate: 44_100, channels: 2)
    /// An episode not measured: its loudness so far, and the frames it has heard.
    private var meter: LoudnessMeter?
    private var meteredFrames = 0
    private var limiter: TruePeakLimiter
    /// Each frame's gain in the chunk being processed.
    private var gains: [Float] = []
    private var output = UnsafeMutableRawBufferPointer.allocate(byteCount: 0, alignment: 16)

    public init(targetLUFS: Double, measured: Loudness?) {
        self.targetLUFS = targetLUFS
        // A measurement with no loudness (silence) says nothing: measure while playing instead.
        self.measured = measured.flatMap { $0.integratedLUFS.isFinite ? $0 : nil }
        gainDB = self.measured.map { Self.gain(reaching: targetLUFS, from: $0.integratedLUFS) } ?? 0
        limiter = TruePeakLimiter(format: format, ceilingDBTP: Self.limiterCeilingDBTP)
    }

    deinit { output.deallocate() }

    /// The gain taking `loudness` to `target`, dB, lifting by at most `maximumGain`.
    static func gain(reaching target: Double, from loudness: Double) -> Double {
        min(maximumGain, target - loudness)
    }

    public func configure(_ input: AudioFormat) -> AudioFormat {
        format = input
        limiter = TruePeakLimiter(format: input, ceilingDBTP: Self.limiterCeilingDBTP)
        meter = measured == nil ? LoudnessMeter(format: input, for: .whilePlaying) : nil
        meteredFrames = 0
        return input
    }

    public func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        let frames = pcm.count / format.bytesPerFrame
        guard frames > 0 else { return pcm }
        let samples = UnsafePointer(pcm.bindMemory(to: Int16.self).baseAddress!)
        if let meter, meter.add(samples, frames: frames) { meteredFrames += frames }
        setGains(frames: frames)
        reserveOutput(frames: frames + limiter.latency)
        let out = output.bindMemory(to: Int16.self).baseAddress!
        let given = gains.withUnsafeBufferPointer { gains in
            limiter.process(samples, frames: frames, gains: gains.baseAddress!, into: out)
        }
        return UnsafeMutableRawBufferPointer(rebasing: output[..<(given * format.bytesPerFrame)])
    }

    public func drain() -> UnsafeMutableRawBufferPointer {
        reserveOutput(frames: limiter.latency)
        let given = limiter.drain(into: output.bindMemory(to: Int16.self).baseAddress!)
        return UnsafeMutableRawBufferPointer(rebasing: output[..<(given * format.bytesPerFrame)])
    }

    /// Forgets the frames the limiter holds; the gain, and the loudness measured so far, stay.
    public func reset() { limiter.reset() }

    /// The limiter's look-ahead, once it has seen that much.
    public var latency: Int { limiter.latency }

    /// Fills `gains` for the next `frames` frames: the measured gain, or one moving towards what
    /// the loudness measured so far asks, `gainRate` at most.
    private func setGains(frames: Int) {
        var wanted = gainDB
        if let meter, Double(meteredFrames) >= Self.measuringTime * Double(format.sampleRate),
            let loudness = meter.integratedLUFS
        {
            wanted = Self.gain(reaching: targetLUFS, from: loudness)
        }
        if gains.count < frames { gains = Array(repeating: 0, count: frames) }
        let step = Self.gainRate / Double(format.sampleRate)
        // Locals: a stored property read or written in this loop costs an exclusivity check
        // every time.
        var gainDB = gainDB
        defer { self.gainDB = gainDB }
        var linear = Float(pow(10, gainDB / 20))
        gains.withUnsafeMutableBufferPointer { gains in
            for frame in 0..<frames {
                if gainDB != wanted {
                    gainDB = wanted > gainDB ? min(wanted, gainDB + step) : max(wanted, gainDB - step)
                    linear = Float(pow(10, gainDB / 20))
                }
                gains[frame] = linear
            }
        }
    }

    private func reserveOutput(frames: Int) {
        let bytes = frames * format.bytesPerFrame
        guard output.count < bytes else { return }
        output.deallocate()
        output = .allocate(byteCount: bytes, alignment: 16)
    }
}
