extension Library {
    /// Saves where the listener is and adds `listened` (what was played since the last save) to
    /// the episode's silence skipped and to today's row of the listening log (the local day of
    /// the library's clock), in one transaction: a killed player loses no more of its statistics
    /// than of its position. With `play` (a session that paused or stopped, not each periodic
    /// save), the sync server's play action goes to the outbox in the same transaction.
    public func savePlayback(
        _ state: PlaybackState, of episode: Episode, listened: ListeningTime, play: PlaySpan? = nil
    ) throws(StoreError) {
        try write { writer throws(StoreError) in
            try setPlaybackState(state, of: episode, silenceSkipped: listened.silenceSkipped, in: writer)
            if let play { try recordEpisodeAction(.play, of: episode.id, play: play, in: writer) }
            guard !listened.isEmpty else { return }
            try writer.run(
                """
                INSERT INTO listening_log (day, episode_id, feed_id, podcast, media_ms, wall_ms, silence_skipped_ms,
                                           intro_outro_ms, finished)
                VALUES (date(?1, 'unixepoch', 'localtime'), ?2, ?3, (SELECT title FROM feeds WHERE id = ?3),
                        ?4, ?5, ?6, ?7, ?8)
                ON CONFLICT (episode_id, day) DO UPDATE SET
                    feed_id = excluded.feed_id, podcast = coalesce(excluded.podcast, podcast),
                    media_ms = media_ms + excluded.media_ms, wall_ms = wall_ms + excluded.wall_ms,
                    silence_skipped_ms = silence_skipped_ms + excluded.silence_skipped_ms,
                    intro_outro_ms = intro_outro_ms + excluded.intro_outro_ms, finished = finished + excluded.finished
                """,
                [
                    SQLValue(writer.now), SQLValue(episode.id), SQLValue(episode.feedID),
                    SQLValue(max(0, listened.media)),
                    SQLValue(max(0, listened.wall)), SQLValue(max(0, listened.silenceSkipped)),
                    SQLValue(max(0, listened.introOutroSkipped)), SQLValue(max(0, listened.finished)),
                ])
        }
    }

    /// The listening log added up per feed, from the local day `since` (YYYY-MM-DD) on, of
    /// feed `feedID` only when given; ordered by title, episodes of no feed last.
    public func listening(since: String? = nil, feedID: Int? = nil) throws(StoreError) -> [FeedListening] {
        try database.rows(
            """
            SELECT log.feed_id, coalesce(feeds.title, max(log.podcast)), sum(media_ms), sum(wall_ms),
                   sum(silence_skipped_ms), sum(intro_outro_ms), sum(finished),
                   count(DISTINCT episode_id) + count(*) FILTER (WHERE episode_id IS NULL)
            FROM listening_log AS log LEFT JOIN feeds ON feeds.id = log.feed_id
            WHERE (?1 IS NULL OR day >= ?1) AND (?2 IS NULL OR log.feed_id = ?2)
            GROUP BY log.feed_id
            ORDER BY log.feed_id IS NULL, 2 COLLATE NOCASE, log.feed_id
            """, [SQLValue(since), SQLValue(feedID)]
        ).map { row in
            FeedListening(
                feedID: row.int(0).map(Int.init), title: row.string(1),
                time: ListeningTime(
                    media: Int(row.int(2) ?? 0), wall: Int(row.int(3) ?? 0), silenceSkipped: Int(row.int(4) ?? 0),
                    introOutroSkipped: Int(row.int(5) ?? 0), finished: Int(row.int(6) ?? 0)),
                episodes: Int(row.int(7) ?? 0))
        }
    }

    /// When the listening log began (Unix seconds): the library's schema 13, made or upgraded to.
    public func listeningLogStart() throws(StoreError) -> Int {
        Int(try database.rows("SELECT min(started_at) FROM listening_log_start").first?.int(0) ?? 0)
    }
}
