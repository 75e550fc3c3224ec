import EpisodeStore

/// `podcli stats`: the listening log added up per feed and in all, from a day on, in seconds.
public struct ListeningReport: Encodable, Sendable {
    /// One feed's figures, or the total's (no feed number, no title).
    public struct Figures: Encodable, Sendable {
        public let feedID: Int?
        public let title: String?
        public let episodes: Int
        public let finished: Int
        /// Media time played, and the device (wall) time it took.
        public let media: Double
        public let wall: Double
        public let savedBySpeed: Double
        public let savedBySilence: Double
        public let savedByIntroOutro: Double
        public let saved: Double

        init(feedID: Int?, title: String?, episodes: Int, time: ListeningTime) {
            self.feedID = feedID
            self.title = title
            self.episodes = episodes
            finished = time.finished
            media = Double(time.media) / 1000
            wall = Double(time.wall) / 1000
            savedBySpeed = Double(time.savedBySpeed) / 1000
            savedBySilence = Double(time.silenceSkipped) / 1000
            savedByIntroOutro = Double(time.introOutroSkipped) / 1000
            saved = Double(time.saved) / 1000
        }

        enum CodingKeys: String, CodingKey {
            case feedID = "feed_id"
            case title, episodes, finished
            case media = "media_seconds"
            case wall = "wall_seconds"
            case savedBySpeed = "saved_by_speed_seconds"
            case savedBySilence = "saved_by_silence_seconds"
            case savedByIntroOutro = "saved_by_intro_outro_seconds"
            case saved = "saved_seconds"
        }

        /// Encodes nil feed numbers and titles as null (the total has neither).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(feedID, forKey: .feedID)
            try container.encode(title, forKey: .title)
            try container.encode(episodes, forKey: .episodes)
            try container.encode(finished, forKey: .finished)
            try container.encode(media, forKey: .media)
            try container.encode(wall, forKey: .wall)
            try container.encode(savedBySpeed, forKey: .savedBySpeed)
            try container.encode(savedBySilence, forKey: .savedBySilence)
            try container.encode(savedByIntroOutro, forKey: .savedByIntroOutro)
            try container.encode(saved, forKey: .saved)
        }
    }

    /// The first day counted: the one asked for, or the day the log began if that is later.
    public let since: String
    /// The day the library began keeping the log (made, or upgraded to schema 13).
    public let countingSince: String
    public let feeds: [Figures]
    public let total: Figures

    /// - Parameters:
    ///   - firstDay: the first day to count; nil: all of the log.
    ///   - feedID: only this feed's episodes.
    /// - Throws: `StoreError`.
    public init(_ library: Library, from firstDay: CalendarDay?, feedID: Int?) throws {
        let start = Formatting.day(try library.listeningLogStart())
        countingSince = start
        let first = firstDay.map { Formatting.day($0.start) }
        since = first.map { max($0, start) } ?? start
        let rows = try library.listening(since: first, feedID: feedID)
        feeds = rows.map { Figures(feedID: $0.feedID, title: $0.title, episodes: $0.episodes, time: $0.time) }
        total = Figures(
            feedID: nil, title: nil, episodes: rows.reduce(0) { $0 + $1.episodes },
            time: rows.reduce(ListeningTime()) { $0 + $1.time })
    }

    enum CodingKeys: String, CodingKey {
        case since
        case countingSince = "counting_since"
        case feeds, total
    }
}
