import EpisodeStore

/// How long the queue takes to hear: each episode's length less where it was left, at the speed
/// its listening settings play it (`Listening`), and the total.
public struct QueueTime {
    /// One queued episode, with the speed it plays at and the time it takes.
    public struct Entry: Encodable {
        public let listing: EpisodeListing
        public let speed: Double
        /// Seconds of listening left; nil (and no `left` in JSON) when its length is unknown.
        public let left: Double?

        /// `list --json`'s fields (`EpisodeLine`), then `speed` and `left`, in one object.
        public func encode(to encoder: any Encoder) throws {
            try EpisodeLine(listing).encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(speed, forKey: .speed)
            try container.encodeIfPresent(left, forKey: .left)
        }

        private enum CodingKeys: String, CodingKey { case speed, left }
    }

    public let entries: [Entry]
    /// Seconds of listening left in the episodes of known length.
    public let total: Double
    /// How many episodes have no length (not counted in `total`).
    public let unknownLengths: Int

    public init(_ queue: [EpisodeListing], listening: Listening) {
        entries = queue.map { listing in
            let speed = listening.settings(forFeed: listing.feedID).speed
            let left = listing.durationMilliseconds.map {
                Double(max(0, $0 - listing.positionMilliseconds)) / 1000 / speed
            }
            return Entry(listing: listing, speed: speed, left: left)
        }
        total = entries.compactMap(\.left).reduce(0, +)
        unknownLengths = entries.count { $0.left == nil }
    }
}
