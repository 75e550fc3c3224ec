/// What the now-playing line shows.
public struct NowPlaying: Equatable, Sendable {
    public var podcast: String?
    public var title: String
    /// Seconds played.
    public var elapsed: Double
    /// Seconds in the episode; nil for a live stream.
    public var duration: Double?
    /// 0...100; values outside are clamped when shown.
    public var volume: Int
    /// The player's state in words. "playing" and "paused" are drawn as ▶ and ⏸; anything else
    /// (e.g. "interrupted (suspend)") is spelled out. Words rather than an enum keep this module
    /// free of the playback engine.
    public var state: String
    /// The playback rate: shown beside the state when it is not 1.
    public var rate: Double

    public init(
        podcast: String? = nil, title: String, elapsed: Double, duration: Double?, volume: Int, state: String,
        rate: Double = 1
    ) {
        self.podcast = podcast
        self.title = title
        self.elapsed = elapsed
        self.duration = duration
        self.volume = volume
        self.state = state
        self.rate = rate
    }
}
