extension Library {
    /// Records a new episode to be downloaded from `sourceURL`.
    public func createEpisode(title: String, sourceURL: String, protection: Protection) throws(StoreError) -> Episode {
        try write { writer throws(StoreError) in
            try createEpisode(title: title, sourceURL: sourceURL, protection: protection, in: writer)
        }
    }

    private func createEpisode(
        title: String, sourceURL: String, protection: Protection, in writer: borrowing Writer
    ) throws(StoreError) -> Episode {
        try writer.run(
            """
            INSERT INTO episodes (uuid, title, source_url, state, protection, created_at, sort_date)
            VALUES (?, ?, ?, 'new', ?, ?, ?)
            """,
            [
                .blob(EpisodeUUID.makeBytes()), .text(title), .text(sourceURL), .text(protection.rawValue),
                SQLValue(writer.now), SQLValue(writer.now),
            ])
        let id = writer.lastInsertedRowID
        try writer.run(Self.insertTextsSQL, [SQLValue(id), .null, .null, .null, .null])
        try indexForSearch(id..<(id + 1), in: writer)
        guard let episode = try episode(id: id) else { throw .episodeNotFound("\(id)") }
        return episode
    }

    /// Adds the episodes `ids`, just inserted with their texts, to the search index, in one
    /// statement (schema 7: no trigger does it).
    ///
    /// One statement because FTS5 writes out what it holds in memory at the start of every
    /// statement that needs a statement journal: indexed one by one, every episode of a
    /// subscription became a segment of the index of its own, and an import took five times as
    /// long.
    func indexForSearch(_ ids: Range<Int>, in writer: borrowing Writer) throws(StoreError) {
        try writer.run(
            """
            INSERT INTO episode_search (rowid, title, podcast, description)
            SELECT episodes.id, episodes.title, feeds.title, search_text(texts.description)
            FROM episodes
            LEFT JOIN feeds ON feeds.id = episodes.feed_id
            LEFT JOIN episode_texts AS texts ON texts.episode_id = episodes.id
            WHERE episodes.id >= ? AND episodes.id < ?
            ORDER BY episodes.id
            """, [SQLValue(ids.lowerBound), SQLValue(ids.upperBound)])
    }

    /// The episode `fetch` downloads from `sourceURL`: the one podcli knows (as `episode(sourceURL:)`
    /// finds it), else a new one. One IMMEDIATE transaction decides, so two podcli fetching the
    /// same URL at once make one episode, not two.
    /// - Returns: the episode, and whether this call made it.
    public func episodeToFetch(
        sourceURL: String, title: String, protection: Protection
    ) throws(StoreError) -> (episode: Episode, isNew: Bool) {
        try write { writer throws(StoreError) in
            if let known = try episode(sourceURL: sourceURL) { return (known, false) }
            return (try createEpisode(title: title, sourceURL: sourceURL, protection: protection, in: writer), true)
        }
    }

    /// Forgets an episode a failed download made for nothing: no file recorded, nothing kept in
    /// its directory to resume, no download under way. Anything else stays.
    /// - Returns: whether it was forgotten.
    @discardableResult
    public func forgetIfNothingKept(_ episode: Episode) throws(StoreError) -> Bool {
        guard let lock = try? lock(episode) else { return false }
        return try withExtendedLifetime(lock) { () throws(StoreError) -> Bool in
            guard try files(of: episode).isEmpty,
                FileSystem.entries(directory(of: episode)).allSatisfy(Library.isOwnFile)
            else { return false }
            try remove(episode)
            return true
        }
    }

    public func episode(id: Int) throws(StoreError) -> Episode? {
        let query = "SELECT \(Episode.columns) FROM episodes \(Episode.withTexts) WHERE id = ?"
        return try database.rows(query, [SQLValue(id)]).first.map(Episode.init)
    }

    /// The episode downloaded from `sourceURL`, if podcli knows one: fetched on its own, or listed
    /// by a feed; a downloaded one first, else the most recent.
    public func episode(sourceURL: String) throws(StoreError) -> Episode? {
        try database.rows(
            """
            SELECT \(Episode.columns) FROM episodes \(Episode.withTexts)
            WHERE substr(source_url, -32) = substr(?1, -32) AND source_url = ?1
            ORDER BY state = 'downloaded' DESC, id DESC LIMIT 1
            """, [.text(sourceURL)]
        ).first.map(Episode.init)
    }

    /// Every episode, oldest first.
    public func episodes() throws(StoreError) -> [Episode] {
        try database.rows("SELECT \(Episode.columns) FROM episodes \(Episode.withTexts) ORDER BY id").map(Episode.init)
    }

    /// The episodes of the feed `feedID`, in the order they were added (by the feed's index: what
    /// one feed holds, whatever the library's size).
    public func episodes(ofFeed feedID: Int) throws(StoreError) -> [Episode] {
        try database.rows(
            "SELECT \(Episode.columns) FROM episodes \(Episode.withTexts) WHERE episodes.feed_id = ? ORDER BY episodes.id",
            [SQLValue(feedID)]
        ).map(Episode.init)
    }

    /// The episode a user means by `reference`: its number, or a unique prefix of its UUID.
    /// - Throws: `StoreError.episodeNotFound` or `.ambiguousEpisode`.
    public func episode(matching reference: String) throws(StoreError) -> Episode {
        if let id = Int(reference), let episode = try episode(id: id) { return episode }
        guard let range = EpisodeUUID.range(ofPrefix: reference) else { throw .episodeNotFound(reference) }
        // A range of the uuid index: found without reading the other episodes.
        let matches = try database.rows(
            "SELECT \(Episode.columns) FROM episodes \(Episode.withTexts) WHERE uuid BETWEEN ? AND ? LIMIT 2",
            [range.lowest, range.highest])
        switch matches.count {
        case 0: throw .episodeNotFound(reference)
        case 1: return Episode(row: matches[0])
        default:
            let count = try database.rows(
                "SELECT count(*) FROM episodes WHERE uuid BETWEEN ? AND ?", [range.lowest, range.highest])
            throw .ambiguousEpisode(reference, matches: Int(count[0].int(0) ?? 2))
        }
    }

    public func setState(_ state: EpisodeState, of episode: Episode) throws(StoreError) {
        try write { writer throws(StoreError) in
            try writer.run("UPDATE episodes SET state = ? WHERE id = ?", [.text(state.rawValue), SQLValue(episode.id)])
        }
    }

    /// Remembers the validator of the partial download so a resume can send it as If-Range.
    public func setValidator(_ validator: String?, of episode: Episode) throws(StoreError) {
        try write { writer throws(StoreError) in
            try writer.run(
                "UPDATE episodes SET validator = ? WHERE id = ?", [SQLValue(validator), SQLValue(episode.id)])
        }
    }

    /// The recorded files of an episode.
    public func files(of episode: Episode) throws(StoreError) -> [EpisodeFile] {
        try database.rows(
            "SELECT \(EpisodeFile.columns) FROM files WHERE episode_id = ? ORDER BY id", [SQLValue(episode.id)]
        ).map(EpisodeFile.init)
    }

    /// Where the listener is in an episode (the start, if it was never played).
    public func playbackState(of episode: Episode) throws(StoreError) -> PlaybackState {
        guard
            let row = try database.rows(
                "SELECT position_ms, played FROM playback_state WHERE episode_id = ?", [SQLValue(episode.id)]
            ).first
        else { return .start }
        return PlaybackState(positionMilliseconds: Int(row.int(0) ?? 0), played: row.int(1) == 1)
    }

    /// The episode was heard to the end (or marked so): played, its position cleared, no
    /// longer new. The sync server learns it as a play to the end: from where `play` (the
    /// session's) began to its length, else one that began and ended at the episode's length.
    public func markPlayed(_ episode: Episode, play: PlaySpan? = nil) throws(StoreError) {
        try write { writer throws(StoreError) in try markPlayed(episode, play: play, in: writer) }
    }

    func markPlayed(_ episode: Episode, play: PlaySpan? = nil, in writer: borrowing Writer) throws(StoreError) {
        try setPlaybackState(PlaybackState(positionMilliseconds: 0, played: true), of: episode, in: writer)
        try writer.run("UPDATE episodes SET is_new = 0 WHERE id = ?", [SQLValue(episode.id)])
        let length = episode.durationMilliseconds.map { $0 / 1000 }
        let span =
            play.map { PlaySpan(started: $0.started, position: $0.total ?? $0.position, total: $0.total) }
            ?? PlaySpan(started: length, position: length, total: length)
        try recordEpisodeAction(.play, of: episode.id, play: span, in: writer)
    }

    /// Another app's played mark or position (an import), `lastPlayed` its time (Unix seconds; nil
    /// when the app kept none), where podcli's own state says less: played on an episode not
    /// played here, a position on one at the start; and, as a sync server's merge, only over a
    /// state older than `lastPlayed` (none when the app kept no time), so an episode marked
    /// unplayed here since the export is not marked played again. An imported played mark with a
    /// time goes to the outbox with that time, a play to the end as `markPlayed`'s.
    /// - Returns: whether it was recorded.
    public func importPlayback(
        _ state: PlaybackState, of episode: Episode, lastPlayed: Int?
    ) throws(StoreError) -> Bool {
        try write { writer throws(StoreError) in
            let sql = "SELECT position_ms, played, updated_at FROM playback_state WHERE episode_id = ?"
            if let local = try database.rows(sql, [SQLValue(episode.id)]).first {
                let saysMore = state.played ? local.int(1) != 1 : local.int(0) == 0 && local.int(1) != 1
                guard saysMore, let lastPlayed, lastPlayed > local.int(2) ?? 0 else { return false }
            }
            try setPlaybackState(state, of: episode, at: lastPlayed, in: writer)
            guard state.played else { return true }
            try writer.run("UPDATE episodes SET is_new = 0 WHERE id = ?", [SQLValue(episode.id)])
            if let lastPlayed {
                let length = episode.durationMilliseconds.map { $0 / 1000 }
                try recordEpisodeAction(
                    .play, of: episode.id, play: PlaySpan(started: length, position: length, total: length),
                    at: lastPlayed, in: writer)
            }
            return true
        }
    }

    /// Saves where the listener is, and adds `silenceSkipped` milliseconds to the time skip
    /// silence saved in the episode (what it left out since the last save), in the same statement.
    /// `time` (Unix seconds, now when nil) is when the listener was there: another app's, for an import.
    public func setPlaybackState(
        _ state: PlaybackState, of episode: Episode, silenceSkipped: Int = 0, at time: Int? = nil
    ) throws(StoreError) {
        try write { writer throws(StoreError) in
            try setPlaybackState(state, of: episode, silenceSkipped: silenceSkipped, at: time, in: writer)
        }
    }

    func setPlaybackState(
        _ state: PlaybackState, of episode: Episode, silenceSkipped: Int = 0, at time: Int? = nil,
        in writer: borrowing Writer
    ) throws(StoreError) {
        try setPlaybackState(state, ofEpisodeID: episode.id, silenceSkipped: silenceSkipped, at: time, in: writer)
    }

    func setPlaybackState(
        _ state: PlaybackState, ofEpisodeID id: Int, silenceSkipped: Int = 0, at time: Int? = nil,
        in writer: borrowing Writer
    ) throws(StoreError) {
        try writer.run(
            """
            INSERT INTO playback_state (episode_id, position_ms, played, updated_at, silence_skipped_ms)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (episode_id) DO UPDATE SET position_ms = excluded.position_ms,
                played = excluded.played, updated_at = excluded.updated_at,
                silence_skipped_ms = silence_skipped_ms + excluded.silence_skipped_ms
            """,
            [
                SQLValue(id), SQLValue(state.positionMilliseconds), SQLValue(state.played ? 1 : 0),
                SQLValue(time ?? writer.now), SQLValue(max(0, silenceSkipped)),
            ])
    }

    /// Milliseconds of silence skip silence has left out of the episode, over every play.
    public func silenceSkipped(in episode: Episode) throws(StoreError) -> Int {
        Int(
            try database.rows(
                "SELECT silence_skipped_ms FROM playback_state WHERE episode_id = ?", [SQLValue(episode.id)]
            ).first?.int(0) ?? 0)
    }
}
