/// The sleep timer's fade, just before the volume: over the last 10 s of listening before the
/// timer runs out (over what is left, for a timer set with less) the sound goes down to silence,
/// as if the volume were turned down evenly. Frames are counted as the listener hears them
/// (device frames, whatever the speed), so the fade lasts 10 s of wall time at any speed.
///
/// The timer extended during the fade, or turned off, brings the sound back up over at most
/// `riseSeconds`, never at once; a timer shortened during the fade goes on down from where the
/// sound is. With no fade under way the filter is out of the sound path.
public final class SleepFade: AudioFilter {
    public static let seconds = 10.0
    /// From silence back to full sound, when a fade is called off.
    public static let riseSeconds = 1.0

    /// The device frame the next frame in becomes: the player sets it to the frames it has
    /// written before each chunk (the filter counts on from there).
    public var nextFrame = 0
    private var rate = 44_100.0
    private var channels = 2
    /// Where the ramp in force was set: the frame, and the fade's level there.
    private var anchor = (frame: 0, level: 1.0)
    /// The device frame at which the sound reaches silence; nil: no timer counting.
    public private(set) var deadline: Int?
    /// Frames from the start of the fade to the deadline.
    private var length = 1

    /// - Parameter level: where the sound starts (a fade the previous episode began goes on).
    public init(level: Double = 1) { anchor.level = level }

    public func configure(_ input: AudioFormat) -> AudioFormat {
        rate = Double(input.sampleRate)
        channels = input.channels
        return input
    }

    /// Fades out to silence at device frame `deadline` from `nextFrame` on (nil: no fade, the
    /// sound comes back up if it was going down). The fall is the 10 s one, or one that starts
    /// where the sound is now when that is too little time for it: never a step down.
    public func aim(at deadline: Int?) {
        guard deadline != self.deadline else { return }
        anchor = (nextFrame, level(at: nextFrame))
        self.deadline = deadline
        length =
            deadline.map { deadline in
                let fromHere = Double(deadline - nextFrame) / max(anchor.level, 0.001)
                return max(1, Int(min(Self.seconds * rate, fromHere)))
            } ?? 1
    }

    /// The device frame where the fade begins (before the first, for a fade that began in the
    /// previous episode); nil without a deadline.
    public var fadeStart: Int? { deadline.map { $0 - length } }

    /// The factor (0...1) of the sound at device frame `frame`: the lower of the rise back from
    /// where the ramp was set and the fall to the deadline.
    public func level(at frame: Int) -> Double {
        var level = min(1, anchor.level + Double(max(0, frame - anchor.frame)) / (Self.riseSeconds * rate))
        if let deadline { level = min(level, Double(deadline - frame) / Double(length)) }
        return max(0, level)
    }

    public func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        let frames = pcm.count / (2 * channels)
        let first = nextFrame
        nextFrame += frames
        // Both ends at 1 means the whole chunk is: the rise only goes up, the fall only down.
        guard level(at: first) < 1 || level(at: first + frames) < 1 else { return pcm }
        let samples = pcm.bindMemory(to: Int16.self)
        for frame in 0..<frames {
            let gain = SoftwareVolume.gain(level(at: first + frame))
            for index in (frame * channels)..<((frame + 1) * channels) {
                samples[index] = Int16(truncatingIfNeeded: (Int32(samples[index]) * gain) >> 16)
            }
        }
        return pcm
    }

    public func drain() -> UnsafeMutableRawBufferPointer { .init(start: nil, count: 0) }
    public func reset() {}
    public var latency: Int { 0 }
}
