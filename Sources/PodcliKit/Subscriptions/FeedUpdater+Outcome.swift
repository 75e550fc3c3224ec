import EpisodeStore

extension FeedUpdater.Outcome: CustomStringConvertible {
    /// The feed subscribed to, refreshed or found unchanged; nil for audio or a feed gone.
    public var feed: Feed? {
        switch self {
        case .subscribed(let feed, _), .refreshed(let feed, _), .unchanged(let feed): feed
        case .unsubscribed, .audio: nil
        }
    }

    /// What happened, in a line: "Subscribed to #3 Show: 40 episodes, the newest marked new".
    public var description: String {
        switch self {
        case .subscribed(let feed, let summary):
            return "Subscribed to #\(feed.id) \(feed.title): \(Formatting.count(summary.added, "episode"))"
                + (summary.newEpisodeIDs.isEmpty ? "" : ", the newest marked new")
        case .refreshed(let feed, let summary):
            var changes = ["\(summary.newEpisodeIDs.count) new"]
            if summary.dropped > 0 { changes.append("\(summary.dropped) no longer listed (kept)") }
            return "Refreshed #\(feed.id) \(feed.title): " + changes.joined(separator: ", ")
        case .unchanged(let feed):
            return "#\(feed.id) \(feed.title) is unchanged"
        case .unsubscribed(let feed):
            return "#\(feed.id) \(feed.title) was unsubscribed meanwhile"
        case .audio:
            return "audio, not a feed"
        }
    }
}
