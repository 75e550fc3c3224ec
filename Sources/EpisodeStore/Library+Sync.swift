/// What `podcli sync` weighs for one episode: where it stands in its feed, on disk and with the
/// listener. Read for the whole library in one query.
public struct EpisodeStatus: Equatable, Sendable {
    public let id: Int
    public let feedID: Int?
    /// What "newest" sorts by.
    public let sortDate: Int
    public let publishedAt: Int?
    /// What the feed says the file weighs.
    public let enclosureLength: Int?
    public let state: EpisodeState
    /// The recorded file's size; nil when nothing is recorded.
    public let fileSize: Int?
    public let played: Bool
    /// When it was last played or its position saved (seconds since the epoch).
    public let playedAt: Int?
    public let isKept: Bool
    public let isQueued: Bool
    public let removedAt: Int?
    public let isNew: Bool
    public let inFeed: Bool
    /// After repeated failures, sync leaves it alone until then.
    public let retryAt: Int?

    public var isDownloaded: Bool { fileSize != nil }

    public init(
        id: Int, feedID: Int?, sortDate: Int, publishedAt: Int? = nil, enclosureLength: Int? = nil,
        state: EpisodeState = .new, fileSize: Int? = nil, played: Bool = false, playedAt: Int? = nil,
        isKept: Bool = false, isQueued: Bool = false, removedAt: Int? = nil, isNew: Bool = false, inFeed: Bool = true,
        retryAt: Int? = nil
    ) {
        self.id = id
        self.feedID = feedID
        self.sortDate = sortDate
        self.publishedAt = publishedAt
        self.enclosureLength = enclosureLength
        self.state = state
        self.fileSize = fileSize
        self.played = played
        self.playedAt = playedAt
        self.isKept = isKept
        self.isQueued = isQueued
        self.removedAt = removedAt
        self.isNew = isNew
        self.inFeed = inFeed
        self.retryAt = retryAt
    }
}

extension Library {
    /// What sync weighs: the episodes that can change what it does, newest first. Those are
    /// the episodes with files (retention, `keep`), the downloads cut short (of a feed or of no
    /// feed), the new ones (`download = new`), and every episode of the feeds in `everyEpisodeOf`
    /// (`download = all`). An episode of none of these is neither deleted nor downloaded by any
    /// policy, so the plan leaves them out without reading them: each set is found through an
    /// index that holds only it (`files`, schema 6's partial indexes, a feed's episodes).
    public func episodeStatuses(everyEpisodeOf feedIDs: [Int] = []) throws(StoreError) -> [EpisodeStatus] {
        let wholeFeeds =
            feedIDs.isEmpty
            ? ""
            : "UNION SELECT id FROM episodes WHERE feed_id IN (\(feedIDs.map { _ in "?" }.joined(separator: ", ")))"
        return try database.rows(
            """
            SELECT episodes.id, feed_id, sort_date, published_at, enclosure_length, state,
                (SELECT sum(size) FROM files WHERE episode_id = episodes.id),
                coalesce(playback.played, 0), playback.updated_at, kept, queue.episode_id IS NOT NULL, removed_at,
                is_new, in_feed, episodes.retry_at
            FROM (
                SELECT episode_id AS id FROM files
                UNION SELECT id FROM episodes WHERE state = 'downloading'
                UNION SELECT id FROM episodes WHERE is_new = 1
                \(wholeFeeds)
            ) AS candidates
            CROSS JOIN episodes ON episodes.id = candidates.id
            LEFT JOIN playback_state AS playback ON playback.episode_id = episodes.id
            LEFT JOIN queue ON queue.episode_id = episodes.id
            WHERE feed_id IS NOT NULL OR state = 'downloading'
            ORDER BY sort_date DESC, episodes.id ASC
            """, feedIDs.map { SQLValue($0) }
        ).map { row in
            EpisodeStatus(
                id: Int(row.int(0)!), feedID: row.int(1).map(Int.init), sortDate: Int(row.int(2) ?? 0),
                publishedAt: row.int(3).map(Int.init), enclosureLength: row.int(4).map(Int.init),
                state: EpisodeState(rawValue: row.string(5) ?? "") ?? .failed, fileSize: row.int(6).map(Int.init),
                played: row.int(7) == 1, playedAt: row.int(8).map(Int.init), isKept: row.int(9) == 1,
                isQueued: row.int(10) == 1, removedAt: row.int(11).map(Int.init), isNew: row.int(12) == 1,
                inFeed: row.int(13) == 1, retryAt: row.int(14).map(Int.init))
        }
    }

    /// The bytes of every recorded file.
    public func recordedBytes() throws(StoreError) -> Int {
        Int(try database.rows("SELECT coalesce(sum(size), 0) FROM files").first?.int(0) ?? 0)
    }

    /// Keeps an episode from retention (`podcli keep`), or lets it go again.
    public func setKept(_ kept: Bool, of episode: Episode) throws(StoreError) {
        try write { writer throws(StoreError) in
            try writer.run("UPDATE episodes SET kept = ? WHERE id = ?", [SQLValue(kept ? 1 : 0), SQLValue(episode.id)])
        }
    }

    /// A download that failed: the episode is `failed`, with the reason `podcli list` shows, and
    /// after repeated failures left alone by sync for a while.
    public func recordFailure(_ message: String, of episode: Episode) throws(StoreError) {
        try countFailure(message, in: "episodes", id: episode.id, setting: "state = 'failed'")
    }

    /// A download stopped by no fault of the episode's (a full disk, a player that quit): the
    /// reason is kept, but no backoff. Cut short by the machine (`cutShort`) with its partial file
    /// kept, it stays `downloading`, so the next sync finishes it first; otherwise it is `new`
    /// again (nothing is downloading it), its partial file kept for the next `fetch` or `play`.
    public func recordInterruption(_ message: String, of episode: Episode, cutShort: Bool = true) throws(StoreError) {
        let hasPartial = FileSystem.entries(directory(of: episode)).contains { $0.hasSuffix(Library.partialSuffix) }
        try write { writer throws(StoreError) in
            try writer.run(
                "UPDATE episodes SET state = ?, last_error = ? WHERE id = ?",
                [.text(cutShort && hasPartial ? "downloading" : "new"), .text(message), SQLValue(episode.id)])
        }
    }

    /// One more failure in a row of the feed or episode `id` (`table` is `feeds` or `episodes`):
    /// its `last_error`, its `failures`, and `retry_at`, when sync may try it again; `setting`
    /// adds an assignment of the table's own.
    func countFailure(_ message: String, in table: String, id: Int, setting: String? = nil) throws(StoreError) {
        try write { writer throws(StoreError) in
            let failures =
                try writer.rows(
                    """
                    UPDATE \(table) SET \(setting.map { $0 + ", " } ?? "")last_error = ?, failures = failures + 1
                    WHERE id = ? RETURNING failures
                    """, [.text(message), SQLValue(id)]
                ).first?.int(0).map(Int.init) ?? 1
            let retryAt = Library.backoff(afterFailures: failures).map { writer.now + $0 }
            try writer.run("UPDATE \(table) SET retry_at = ? WHERE id = ?", [SQLValue(retryAt), SQLValue(id)])
        }
    }

    /// How long sync leaves a feed or an episode alone after `failures` attempts failed in a row:
    /// not at all for the first two (a server has bad minutes), then an hour, doubling up to a day.
    public static func backoff(afterFailures failures: Int) -> Int? {
        guard failures >= 3 else { return nil }
        return min(3600 << min(failures - 3, 5), 86_400)
    }
}
