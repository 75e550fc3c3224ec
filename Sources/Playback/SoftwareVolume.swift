/// Volume applied to the samples themselves, so it works on every device (ALSA's mixer belongs
/// to the card, not to the stream): the last filter of the chain. 100% leaves the samples
/// untouched, bit for bit.
public final class SoftwareVolume: AudioFilter {
    public static let range = 0...100

    /// `percent`, kept within `range`; the player sets it from its engine before each chunk.
    public var percent: Int

    public init(percent: Int = 100) { self.percent = percent }

    /// `percent`, kept within `range`.
    public static func clamped(_ percent: Int) -> Int { range.clamped(percent) }

    /// Scales interleaved 16-bit samples in place. The gain is cubic, as in mpv: equal steps of
    /// the percentage sound like equal steps of loudness.
    public static func apply(_ volume: Int, to samples: UnsafeMutableRawBufferPointer) {
        guard volume < 100 else { return }
        let gain = gain(Double(max(0, volume)) / 100)
        let pcm = samples.bindMemory(to: Int16.self)
        for index in pcm.indices {
            pcm[index] = Int16(truncatingIfNeeded: (Int32(pcm[index]) * gain) >> 16)
        }
    }

    /// The fixed-point (16.16) gain for a level from 0 to 1: its cube, so that even steps of
    /// the level sound like even steps of loudness.
    static func gain(_ level: Double) -> Int32 { Int32(level * level * level * 65_536) }

    public func configure(_ input: AudioFormat) -> AudioFormat { input }

    public func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        Self.apply(percent, to: pcm)
        return pcm
    }

    public func drain() -> UnsafeMutableRawBufferPointer { .init(start: nil, count: 0) }
    public func reset() {}
    public var latency: Int { 0 }
}
