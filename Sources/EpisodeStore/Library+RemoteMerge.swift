extension Library {
    /// Merges the episode actions a sync server gave since the last exchange, in one transaction.
    ///
    /// The newest play or `new` per episode is compared with the episode's state here
    /// (`playback_state.updated_at`, the library's clock): only a newer one is taken, so an older
    /// one never overwrites, and an equal one (the echo of what this library uploaded) changes
    /// nothing. A play within 30 s of its `total` (or past it) marks the episode played, another
    /// is the position `play` resumes from; `new` marks it unplayed at the start. The state takes
    /// the action's time, so a later local change is newer again. Downloads and deletions on other
    /// devices are counted, not acted on. Whatever the outcome, an outbox entry of the episode
    /// older than its newest action is dropped: never upload what is older than seen (Nextcloud
    /// keeps the last action uploaded, whatever its time). Nothing is written to the outbox.
    ///
    /// An action is matched by its guid (within its podcast when the podcast is subscribed: guids
    /// are not unique across feeds; else when one episode has it), then by its media key, the
    /// enclosure URL with tracking prefixes and scheme stripped (within the podcast likewise).
    /// The library's episodes are read once, so 20,000 actions take one pass and no query each.
    public func mergeRemoteEpisodeActions(_ actions: [RemoteEpisodeAction]) throws(StoreError) -> RemoteMergeSummary {
        var summary = RemoteMergeSummary()
        let known = try RemoteEpisodeIndex(self)
        var newest: [Int: RemoteEpisodeAction] = [:]
        for action in actions {
            switch action.kind {
            case .download: summary.downloads += 1
            case .delete: summary.deletions += 1
            case .play where action.play?.position == nil: summary.unmatched += 1
            case .play, .new:
                guard let id = known.episode(of: action) else {
                    summary.unmatched += 1
                    continue
                }
                // Of equal times the later listed: servers list actions in the order they took them.
                if let held = newest[id], held.timestamp > action.timestamp { continue }
                newest[id] = action
            }
        }
        // The outbox holds few episodes: only theirs are looked for.
        let pending = Set(
            try database.rows("SELECT podcast_url || char(10) || episode_url FROM outbox WHERE episode_url IS NOT NULL")
                .compactMap { $0.string(0) })
        try write { writer throws(StoreError) in
            for (id, action) in newest.sorted(by: { $0.key < $1.key }) {
                let episode = known.episodes[id]!
                if let updated = episode.updatedAt, updated >= action.timestamp {
                    summary.notNewer += 1
                } else {
                    let state = Self.state(after: action)
                    try setPlaybackState(state, ofEpisodeID: id, at: action.timestamp, in: writer)
                    if state.played {
                        try writer.run("UPDATE episodes SET is_new = 0 WHERE id = ?", [SQLValue(id)])
                        summary.played += 1
                    } else if action.kind == .new {
                        summary.unplayed += 1
                    } else {
                        summary.positions += 1
                    }
                }
                guard let podcastURL = episode.podcastURL, pending.contains(podcastURL + "\n" + episode.episodeURL)
                else { continue }
                try writer.run(
                    "DELETE FROM outbox WHERE episode_url = ? AND podcast_url = ? AND at < ?",
                    [.text(episode.episodeURL), .text(podcastURL), SQLValue(action.timestamp)])
                summary.outboxDropped += writer.changes
            }
        }
        return summary
    }

    /// How far from the end a play counts as heard to the end (AntennaPod's and gPodder's rule).
    static let playedWithin = 30

    /// The state a play or `new` leaves.
    private static func state(after action: RemoteEpisodeAction) -> PlaybackState {
        guard action.kind == .play, let position = action.play?.position else { return .start }
        if let total = action.play?.total, position >= total - playedWithin {
            return PlaybackState(positionMilliseconds: 0, played: true)
        }
        return PlaybackState(positionMilliseconds: max(0, position) * 1000, played: false)
    }
}

/// The library's episodes as a sync server's actions name them, read once for a merge.
private struct RemoteEpisodeIndex {
    struct Known {
        let feedID: Int?
        /// The outbox's names of the episode: its feed's URL (nil for an episode of no feed) and
        /// its enclosure URL.
        let podcastURL: String?
        let episodeURL: String
        /// When its playback state was last set; nil if never.
        let updatedAt: Int?
    }

    private(set) var episodes: [Int: Known] = [:]
    private var feeds: [String: Int] = [:]
    private var byFeedGUID: [String: Int] = [:]
    private var byGUID: [String: [Int]] = [:]
    private var byMediaKey: [String: [Int]] = [:]

    init(_ library: Library) throws(StoreError) {
        for row in try library.database.rows("SELECT id, url FROM feeds") {
            feeds[FeedURLCredentials.stripped(row.string(1) ?? "")] = Int(row.int(0) ?? 0)
        }
        try library.database.forEachRow(
            """
            SELECT episodes.id, episodes.feed_id, episodes.guid, \(Library.mediaKey), episodes.source_url, feeds.url,
                   playback.updated_at
            FROM episodes LEFT JOIN feeds ON feeds.id = episodes.feed_id
                LEFT JOIN playback_state AS playback ON playback.episode_id = episodes.id
            """
        ) { row in
            let id = Int(row.int(0) ?? 0)
            let feedID = row.int(1).map(Int.init)
            episodes[id] = Known(
                feedID: feedID, podcastURL: row.string(5), episodeURL: row.string(4) ?? "",
                updatedAt: row.int(6).map(Int.init))
            if let guid = row.string(2) {
                if let feedID { byFeedGUID[Self.key(feedID, guid)] = id }
                byGUID[guid, default: []].append(id)
            }
            if let mediaKey = row.string(3) { byMediaKey[mediaKey, default: []].append(id) }
            return true
        }
    }

    /// The episode `action` is about: see `mergeRemoteEpisodeActions`.
    func episode(of action: RemoteEpisodeAction) -> Int? {
        let feedID = feeds[FeedURLCredentials.stripped(action.podcastURL)]
        if let guid = action.guid {
            if let feedID, let id = byFeedGUID[Self.key(feedID, guid)] { return id }
            if feedID == nil, let ids = byGUID[guid], ids.count == 1 { return ids[0] }
        }
        guard let ids = byMediaKey[action.mediaKey] else { return nil }
        if let feedID { return ids.first { episodes[$0]?.feedID == feedID } }
        return ids.count == 1 ? ids[0] : nil
    }

    private static func key(_ feedID: Int, _ guid: String) -> String { "\(feedID)\u{1}\(guid)" }
}
