/// What the now-playing line shows.
public struct NowPlaying: Equatable, Sendable {
    public var podcast: String?
    public var title: String
    /// Who makes it (the episode's author, else the podcast's).
    public var author: String?
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
    /// What is left of the sleep timer; nil: none.
    public var sleep: Sleep?

    /// What is left of a sleep timer: seconds of listening, or the rest of the episode.
    public enum Sleep: Equatable, Sendable, Codable {
        case seconds(Double)
        case endOfEpisode

        /// In JSON (`status --json`): the seconds, to a tenth, or `"end"`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .seconds(let seconds): try container.encode((seconds * 10).rounded() / 10)
            case .endOfEpisode: try container.encode("end")
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) {
                self = .seconds(seconds)
            } else if try container.decode(String.self) == "end" {
                self = .endOfEpisode
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a sleep timer is seconds or \"end\"")
            }
        }
    }

    public init(
        podcast: String? = nil, title: String, elapsed: Double, duration: Double?, volume: Int, state: String,
        rate: Double = 1, sleep: Sleep? = nil, author: String? = nil
    ) {
        self.author = author
        self.podcast = podcast
        self.title = title
        self.elapsed = elapsed
        self.duration = duration
        self.volume = volume
        self.state = state
        self.rate = rate
        self.sleep = sleep
    }
}
