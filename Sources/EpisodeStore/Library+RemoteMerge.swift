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
    /// An action is matched by its guid within its podcast (guids are not unique across feeds),
    /// then by its media key, the enclosure URL with tracking prefixes and scheme stripped; an
    /// action of a podcast not subscribed here, among the episodes of no feed when one has that
    /// guid or key, else by its exact enclosure URL. Only the feeds the actions name are read,
    /// each once: 20,000 actions take one pass, and a few cost a few feeds in any library.
    public func mergeRemoteEpisodeActions(_ actions: [RemoteEpisodeAction]) throws(StoreError) -> RemoteMergeSummary {
        var summary = RemoteMergeSummary()
        var known = try RemoteEpisodeIndex(self)
        var newest: [Int: RemoteEpisodeAction] = [:]
        for action in actions {
            switch action.kind {
            case .download: summary.downloads += 1
            case .delete: summary.deletions += 1
            case .play where action.play?.position == nil: summary.unmatched += 1
            case .play, .new:
                guard let id = try known.episode(of: action) else {
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

/// The library's episodes as a sync server's actions name them, read for a merge a feed at a
/// time: only the feeds the actions name (by the feed index), so a merge costs what it touches,
/// not the library's size. An action of a podcast not subscribed here is looked for among the
/// episodes of no feed (read once) and by its exact enclosure URL (by that URL's index).
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

    private let library: Library
    private(set) var episodes: [Int: Known] = [:]
    private var feeds: [String: Int] = [:]
    /// The feeds read so far; nil stands for the episodes of no feed.
    private var loaded: Set<Int?> = []
    /// Within a feed (nil: of no feed), by guid and by media key; ambiguous keys of no feed are
    /// kept as nil so they match nothing.
    private var byGUID: [Key: Int?] = [:]
    private var byMediaKey: [Key: Int?] = [:]

    private struct Key: Hashable {
        let feedID: Int?
        let name: String
    }

    init(_ library: Library) throws(StoreError) {
        self.library = library
        for row in try library.database.rows("SELECT id, url FROM feeds") {
            feeds[FeedURLCredentials.stripped(row.string(1) ?? "")] = Int(row.int(0) ?? 0)
        }
    }

    /// The episode `action` is about: see `mergeRemoteEpisodeActions`.
    mutating func episode(of action: RemoteEpisodeAction) throws(StoreError) -> Int? {
        let feedID = feeds[FeedURLCredentials.stripped(action.podcastURL)]
        try load(feedID)
        if let guid = action.guid, let id = byGUID[Key(feedID: feedID, name: guid)] ?? nil { return id }
        if let id = byMediaKey[Key(feedID: feedID, name: action.mediaKey)] ?? nil { return id }
        guard feedID == nil else { return nil }
        // An enclosure of a feed subscribed under another URL.
        return try exactEnclosure(action.episodeURL)
    }

    private static let columns = """
        SELECT episodes.id, episodes.feed_id, episodes.guid, \(Library.mediaKey), episodes.source_url, feeds.url,
               playback.updated_at
        FROM episodes LEFT JOIN feeds ON feeds.id = episodes.feed_id
            LEFT JOIN playback_state AS playback ON playback.episode_id = episodes.id
        """

    private mutating func load(_ feedID: Int?) throws(StoreError) {
        guard loaded.insert(feedID).inserted else { return }
        try read(Self.columns + " WHERE episodes.feed_id IS ?", [SQLValue(feedID)])
    }

    private mutating func exactEnclosure(_ url: String) throws(StoreError) -> Int? {
        var found: [Int] = []
        try library.database.forEachRow(
            "SELECT id FROM episodes WHERE substr(source_url, -32) = substr(?1, -32) AND source_url = ?1 LIMIT 2",
            [.text(url)]
        ) { row in
            found.append(Int(row.int(0) ?? 0))
            return true
        }
        guard found.count == 1, let id = found.first else { return nil }
        if episodes[id] == nil {
            try read(Self.columns + " WHERE episodes.id = ?", [SQLValue(id)], indexing: false)
        }
        return id
    }

    private mutating func read(_ sql: String, _ values: [SQLValue], indexing: Bool = true) throws(StoreError) {
        var rows: [(Int, Int?, String?, String?, Known)] = []
        try library.database.forEachRow(sql, values) { row in
            let id = Int(row.int(0) ?? 0)
            let feedID = row.int(1).map(Int.init)
            rows.append(
                (
                    id, feedID, row.string(2), row.string(3),
                    Known(
                        feedID: feedID, podcastURL: row.string(5), episodeURL: row.string(4) ?? "",
                        updatedAt: row.int(6).map(Int.init))
                ))
            return true
        }
        for (id, feedID, guid, mediaKey, known) in rows {
            episodes[id] = known
            guard indexing else { continue }
            if let guid { Self.note(id, as: Key(feedID: feedID, name: guid), in: &byGUID) }
            if let mediaKey { Self.note(id, as: Key(feedID: feedID, name: mediaKey), in: &byMediaKey) }
        }
    }

    /// Within a feed the first episode listed keeps a key (a feed's guids are its own); among
    /// episodes of no feed a key two have matches neither.
    private static func note(_ id: Int, as key: Key, in table: inout [Key: Int?]) {
        if let held = table[key] {
            if key.feedID == nil, held != id { table[key] = .some(nil) }
        } else {
            table[key] = id
        }
    }
}
