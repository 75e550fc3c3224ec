/// What a downloaded file measured once complete (schema 8): its exact length, decoded as the
/// player decodes it, and its EBU R128 loudness.
public struct EpisodeMeasurement: Equatable, Sendable {
    /// PCM frames at `sampleRate`: the exact length.
    public let frames: Int
    public let sampleRate: Int
    /// Integrated loudness (LUFS) and the highest true peak of any channel (dBTP); nil for a file
    /// of silence only, which has no integrated loudness.
    public let loudnessLUFS: Double?
    public let truePeakDBTP: Double?

    public init(frames: Int, sampleRate: Int, loudnessLUFS: Double?, truePeakDBTP: Double?) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.loudnessLUFS = loudnessLUFS
        self.truePeakDBTP = truePeakDBTP
    }

    /// The length in milliseconds, rounded down (as `lengthMilliseconds` computes it in SQL).
    public var milliseconds: Int { frames * 1000 / sampleRate }

    /// The length a listing or an episode shows, in SQL, for a query over `episodes`: the
    /// measured one, else the feed's `itunes:duration` (often wrong).
    static let lengthMilliseconds = """
        coalesce((SELECT frames * 1000 / sample_rate FROM measurements WHERE episode_id = episodes.id), \
        episodes.duration_ms)
        """
}
