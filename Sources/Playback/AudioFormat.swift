/// The PCM a decoder produces: interleaved signed 16-bit samples in native byte order.
public struct AudioFormat: Equatable, Sendable {
    public let sampleRate: Int
    public let channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes in one PCM frame (one sample of every channel).
    public var bytesPerFrame: Int { channels * 2 }
}
