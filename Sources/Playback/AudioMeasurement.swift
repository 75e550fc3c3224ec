/// A complete file measured once, decoded through the player's own decoders: its exact length
/// (the frames `Player` will play) and its loudness.
public struct AudioMeasurement: Equatable, Sendable {
    /// PCM frames decoded, at `sampleRate`.
    public let frames: Int
    public let sampleRate: Int
    /// nil when the file has no integrated loudness (silence only, or shorter than 0.4 s).
    public let loudness: Loudness?

    public init(frames: Int, sampleRate: Int, loudness: Loudness?) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.loudness = loudness
    }

    /// The length in milliseconds (rounded down).
    public var milliseconds: Int { frames * 1000 / max(sampleRate, 1) }

    /// Decodes `path` to its end once, counting frames and metering them.
    /// - Throws: `DecoderError` when the file cannot be opened or decoded to its end.
    public static func measure(path: String) throws(DecoderError) -> AudioMeasurement {
        let decoder = try AudioDecoders.open(path: path)
        let format = decoder.format
        guard let meter = LoudnessMeter(format: format) else {
            throw .unplayable(
                path: path, reason: "cannot measure \(format.channels) channels at \(format.sampleRate) Hz")
        }
        // 8192 frames a read: few calls into the decoder and the meter, 32 KiB of stereo.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192 * format.bytesPerFrame, alignment: 8)
        defer { buffer.deallocate() }
        var frames = 0
        while true {
            let bytes = try decoder.read(into: buffer)
            guard bytes > 0 else { break }
            let count = bytes / format.bytesPerFrame
            guard meter.add(buffer.baseAddress!.assumingMemoryBound(to: Int16.self), frames: count) else {
                throw .decoding(path: path, reason: "libebur128 could not measure its samples")
            }
            frames += count
        }
        return AudioMeasurement(frames: frames, sampleRate: format.sampleRate, loudness: meter.loudness)
    }
}
