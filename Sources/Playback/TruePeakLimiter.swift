#if canImport(Glibc)
    import Glibc
#endif

/// A look-ahead limiter that keeps the true peak of what it gives out, the peak between
/// samples too, under a ceiling (EBU R128's −1 dBTP for a loudness gain).
///
/// Each interval between two frames is oversampled 4× (a windowed sinc over the 12 frames around
/// it) for its peak, which asks a gain of at most ceiling/peak of the frames around it; the gain
/// of each frame follows from those (`LimiterEnvelope`: a linear ramp down over `attack` frames
/// before a peak, a release back up). Frames are given out `delay` frames late: what the gain
/// has to see ahead of them. Not `Sendable`: one limiter, one thread.
final class TruePeakLimiter {
    let channels: Int
    /// Frames over which the gain ramps down before a peak.
    let attack: Int
    /// Frames held back: the attack, the frames either side of an interval whose gain its peak
    /// depends on, and the frames the oversampling reads after it.
    let delay: Int
    private let ceiling: Float

    /// Frames either side of an interval that its oversampled peak reads, and whose gain it limits.
    static let reach = 6
    /// Taps of the oversampling: frames p-5 ... p+6 for the points a quarter, half and three
    /// quarters of the way from frame p to p+1.
    static let taps = 2 * reach
    /// Their weights, `taps` for each of the three points (a Blackman-windowed sinc, each point's
    /// weights summing to 1).
    static let weightRows: [[Float]] = (1...3).map { quarter in
        let row = (0..<taps).map { tap in
            let distance = Double(tap - reach + 1) - Double(quarter) / 4
            return sinc(distance) * blackman(distance, halfWidth: Double(reach) + 0.5)
        }
        let sum = row.reduce(0, +)
        return row.map { Float($0 / sum) }
    }
    /// The same weights in memory of its own: the loop over them runs for every sample.
    private let weights: UnsafeMutablePointer<Float> = {
        let weights = UnsafeMutablePointer<Float>.allocate(capacity: 3 * taps)
        weights.initialize(from: Array(weightRows.joined()), count: 3 * taps)
        return weights
    }()
    /// The most any oversampled point can be over the largest of the frames it reads (the largest
    /// sum of a point's absolute weights, at least 1): where every frame around an interval is
    /// under ceiling / this, its peak cannot be over the ceiling, and is not computed.
    static let weightBound = weightRows.map { $0.reduce(0) { $0 + abs($1) } }.reduce(1, max)
    /// Intervals whose peaks are judged together by that bound: most of speech at a loudness
    /// target is well under the ceiling, and the bound is 12 comparisons a sample, not 36 products.
    static let block = 64

    /// Gained samples, interleaved, frames from `bufferStart` (before the first frame, zeros) up
    /// to `framesIn`: what is held back, and what the oversampling of the next intervals reads.
    private var buffer: [Float] = []
    private var bufferStart = 0
    /// Frames taken in and given out since the last reset.
    private var framesIn = 0
    private var framesOut = 0
    /// The gain from frame to frame.
    private var envelope: LimiterEnvelope

    /// Frames taken in and not given out yet.
    var latency: Int { framesIn - framesOut }

    /// - Parameters:
    ///   - ceilingDBTP: the highest true peak given out.
    ///   - attackSeconds, releaseSeconds: how long the gain takes to go down before a peak, and
    ///     the time constant of its way back up.
    init(format: AudioFormat, ceilingDBTP: Double, attackSeconds: Double = 0.005, releaseSeconds: Double = 0.1) {
        channels = format.channels
        attack = max(1, Int(attackSeconds * Double(format.sampleRate)))
        delay = attack - 1 + 2 * Self.reach
        ceiling = Float(pow(10, ceilingDBTP / 20))
        envelope = LimiterEnvelope(
            attack: attack, reach: Self.reach, releaseKeep: exp(-1 / (releaseSeconds * Double(format.sampleRate))))
        reset()
    }

    deinit {
        weights.deallocate()
        envelope.deallocate()
    }

    /// Forgets the frames held (a seek: what comes next does not follow them).
    func reset() {
        bufferStart = -Self.reach
        buffer = Array(repeating: 0, count: Self.reach * channels)
        framesIn = 0
        framesOut = 0
        envelope.reset()
    }

    /// Takes `frames` frames of `input`, each frame's samples times its `gains`, and gives out
    /// into `output` (room for `frames + latency` frames) the frames whose peaks ahead it has
    /// seen; returns how many.
    func process(
        _ input: UnsafePointer<Int16>, frames: Int, gains: UnsafePointer<Float>,
        into output: UnsafeMutablePointer<Int16>
    ) -> Int {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: frames * channels))
        buffer.withUnsafeMutableBufferPointer { samples in
            for frame in 0..<frames {
                for channel in 0..<channels {
                    let index = frame * channels + channel
                    samples[start + index] = Float(input[index]) / 32_768 * gains[frame]
                }
            }
        }
        let given = run(frames: frames, into: output)
        framesIn += frames
        forgetFramesBefore(framesIn - delay)
        return given
    }

    /// Gives out into `output` (room for `latency` frames) what is held, as if silence followed;
    /// then holds nothing.
    func drain(into output: UnsafeMutablePointer<Int16>) -> Int {
        buffer.append(contentsOf: repeatElement(0, count: delay * channels))
        let given = run(frames: delay, into: output)
        reset()
        return given
    }

    /// Runs the frames `framesIn ..< framesIn + frames`, already in the buffer, through the
    /// oversampling and the gain, giving out the frames `delay` before them.
    private func run(frames: Int, into output: UnsafeMutablePointer<Int16>) -> Int {
        var given = 0
        // Locals: a stored property read in this loop costs an exclusivity check every time.
        let (channels, delay, bufferStart, framesIn) = (channels, delay, bufferStart, framesIn)
        var envelope = envelope
        defer { self.envelope = envelope }
        let quietPeak = ceiling / Self.weightBound
        // Intervals before `blockEnd` are judged quiet (under the ceiling without oversampling) or not.
        var blockEnd = Int.min
        var blockIsQuiet = false
        buffer.withUnsafeBufferPointer { samples in
            for frame in framesIn..<(framesIn + frames) {
                let interval = frame - Self.reach
                guard interval >= -1 else { continue }
                if interval >= blockEnd {
                    // The intervals up to the last one this run has every frame for.
                    blockEnd = min(interval + Self.block, framesIn + frames - Self.reach)
                    let first = (interval - Self.reach + 1 - bufferStart) * channels
                    let last = (blockEnd - 1 + Self.reach - bufferStart) * channels + channels
                    blockIsQuiet = samples[first..<last].allSatisfy { abs($0) <= quietPeak }
                }
                envelope.ask(
                    blockIsQuiet ? 1 : gainAsked(by: interval, samples, bufferStart: bufferStart), of: interval)
                let out = frame - delay
                guard out >= 0 else { continue }
                let gain = Float(envelope.gain(of: out))
                let base = (out - bufferStart) * channels
                for channel in 0..<channels {
                    let value = max(-32_768, min(32_767, samples[base + channel] * gain * 32_768))
                    // Rounded half away from zero, as `rounded()` does, without its call into libm.
                    output[given * channels + channel] = Int16(value + (value < 0 ? -0.5 : 0.5))
                }
                given += 1
            }
        }
        framesOut += given
        return given
    }

    /// The gain the interval after frame `interval` asks: its peak oversampled, against the ceiling.
    private func gainAsked(by interval: Int, _ samples: UnsafeBufferPointer<Float>, bufferStart: Int) -> Float {
        let channels = channels
        let weights = weights
        let start = samples.baseAddress! + (interval - Self.reach + 1 - bufferStart) * channels
        var peak: Float = 0
        for channel in 0..<channels {
            let first = start + channel
            peak = max(peak, abs(first[(Self.reach - 1) * channels]))
            var point = weights
            for _ in 0..<3 {
                var value: Float = 0
                var sample = first
                for tap in 0..<Self.taps {
                    value += point[tap] * sample.pointee
                    sample += channels
                }
                peak = max(peak, abs(value))
                point += Self.taps
            }
        }
        return peak > ceiling ? ceiling / peak : 1
    }

    /// Drops the buffered frames before `frame`: neither the gain nor the oversampling reads them
    /// any more.
    private func forgetFramesBefore(_ frame: Int) {
        let drop = frame - bufferStart
        guard drop > 0 else { return }
        buffer.removeFirst(drop * channels)
        bufferStart = frame
    }

    private static func sinc(_ x: Double) -> Double { x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x) }

    private static func blackman(_ x: Double, halfWidth: Double) -> Double {
        0.42 + 0.5 * cos(Double.pi * x / halfWidth) + 0.08 * cos(2 * Double.pi * x / halfWidth)
    }
}
