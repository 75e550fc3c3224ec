extension Library {
    /// The queued episodes ("Up Next"), in play order.
    public func queue() throws(StoreError) -> [Episode] {
        try database.rows(
            """
            SELECT \(Episode.columns) FROM queue JOIN episodes ON episodes.id = queue.episode_id \(Episode.withTexts)
            ORDER BY queue.ordinal, queue.episode_id
            """
        ).map(Episode.init)
    }

    /// The queued episodes in play order, with what a listing shows beside each.
    public func queueListing() throws(StoreError) -> [EpisodeListing] {
        try database.rows(
            """
            SELECT \(EpisodeListing.columns) FROM queue JOIN episodes ON episodes.id = queue.episode_id
            \(EpisodeListing.feedJoin) \(EpisodeListing.playbackJoin)
            ORDER BY queue.ordinal, queue.episode_id
            """
        ).map(EpisodeListing.init)
    }

    /// Appends `episodes` to the end of the queue, in the order given, in one transaction. An
    /// episode already queued keeps its place.
    /// - Returns: how many episodes were added.
    /// - Throws: `StoreError.episodeNotFound` when one of them is no longer in the library (another
    ///   podcli removed it); then nothing is added.
    @discardableResult
    public func enqueue(_ episodes: [Episode]) throws(StoreError) -> Int {
        var added = 0
        try transaction { () throws(StoreError) in
            let now = Library.now
            for episode in episodes {
                guard try !database.rows("SELECT 1 FROM episodes WHERE id = ?", [SQLValue(episode.id)]).isEmpty else {
                    throw .episodeNotFound("\(episode.id)")
                }
                try database.run(
                    """
                    INSERT INTO queue (episode_id, ordinal, added_at)
                    VALUES (?, (SELECT coalesce(max(ordinal), 0) + 1 FROM queue), ?)
                    ON CONFLICT (episode_id) DO NOTHING
                    """, [SQLValue(episode.id), SQLValue(now)])
                added += database.changes
            }
        }
        return added
    }

    /// Takes `episode` out of the queue.
    /// - Returns: false if it was not queued.
    @discardableResult
    public func dequeue(_ episode: Episode) throws(StoreError) -> Bool {
        try database.run("DELETE FROM queue WHERE episode_id = ?", [SQLValue(episode.id)])
        return database.changes == 1
    }

    /// Empties the queue (the episodes stay in the library).
    /// - Returns: how many episodes were in it.
    @discardableResult
    public func clearQueue() throws(StoreError) -> Int {
        try database.run("DELETE FROM queue")
        return database.changes
    }
}
