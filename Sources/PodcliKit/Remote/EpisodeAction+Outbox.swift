import EpisodeStore
import Feeds
import GPodderSync

extension EpisodeAction {
    /// The outbox's episode entry as it goes up (the wire takes the URLs' credentials off); nil for
    /// a subscription change.
    init?(_ entry: OutboxEntry) {
        // The API's names for what happened to an episode are the outbox's.
        guard let episode = entry.episodeURL, let kind = Kind(rawValue: entry.action.rawValue) else { return nil }
        self.init(
            podcast: entry.podcastURL, episode: episode, guid: entry.guid, kind: kind, timestamp: entry.timestamp,
            started: entry.play?.started, position: entry.play?.position, total: entry.play?.total)
    }
}

extension RemoteEpisodeAction {
    /// A server's action as the library merges it, keyed as feeds' items are (without trackers).
    init(_ action: EpisodeAction) {
        let kind: Kind
        switch action.kind {
        case .play: kind = .play
        case .download: kind = .download
        case .delete: kind = .delete
        case .new: kind = .new
        }
        self.init(
            podcastURL: action.podcast, episodeURL: action.episode, mediaKey: TrackingPrefix.strip(action.episode),
            guid: action.guid, kind: kind, timestamp: action.timestamp,
            play: action.kind == .play
                ? PlaySpan(started: action.started, position: action.position, total: action.total) : nil)
    }
}
