extension Library {
    /// Matches each item of a document to a known episode of the feed, updates the matches,
    /// inserts the rest, and marks known episodes the document no longer lists.
    ///
    /// Matching goes in passes over the whole document, strongest key first (guid and
    /// enclosure together, guid, enclosure without trackers, title and date), so an item listed
    /// earlier cannot take an episode by a weak key that a later item holds by a strong one.
    /// Episodes kept with their files after an unsubscribe (no feed, but a media key) are known
    /// too, so subscribing again finds them instead of downloading them again.
    func merge(
        _ items: [EpisodeMetadata], into feedID: Int, protection: Protection, markNew: Bool
    ) throws(StoreError) -> MergeSummary {
        var summary = MergeSummary()
        var known = try KnownEpisodes(
            database.rows(
                """
                SELECT id, guid, \(Self.mediaKey), title, published_at FROM episodes
                WHERE feed_id = ? OR (feed_id IS NULL AND media_key IS NOT NULL)
                """, [SQLValue(feedID)]))

        // The same item listed twice (same guid and enclosure) is one episode.
        var seen = Set<String>()
        let distinct = items.filter { seen.insert(($0.guid ?? "") + "\u{1}" + $0.mediaKey).inserted }
        summary.repeated = items.count - distinct.count
        // A guid given to two different items of one document identifies neither.
        var guidCounts: [String: Int] = [:]
        for item in distinct { if let guid = item.guid { guidCounts[guid, default: 0] += 1 } }
        let guids = distinct.map { item in item.guid.flatMap { guidCounts[$0] == 1 ? $0 : nil } }

        var matches = [Int64?](repeating: nil, count: distinct.count)
        for pass in KnownEpisodes.Key.allCases {
            for index in distinct.indices where matches[index] == nil {
                let item = distinct[index]
                matches[index] = known.claim(
                    pass, guid: guids[index], mediaKey: item.mediaKey, title: item.title, date: item.publishedAt)
            }
        }

        let now = Library.now
        // New episodes are numbered here, so their texts can be written before them: schema 6's
        // triggers then leave them to `indexNewEpisodes` (see 006_scale.sql).
        let firstNewID = Int(try database.rows("SELECT coalesce(max(id), 0) + 1 FROM episodes")[0].int(0) ?? 1)
        // A dateless item sorts just below the dated item before it in the document (feeds list
        // newest first), or below "now" at the top: its order in the feed is kept.
        var dateAbove = now
        for (item, match) in zip(distinct, matches) {
            if let published = item.publishedAt { dateAbove = min(published, now) } else { dateAbove -= 1 }
            if let match {
                try database.run(Self.updateEpisodeSQL, Self.values(of: item) + [SQLValue(feedID), .integer(match)])
                try database.run(Self.upsertTextsSQL, [.integer(match)] + Self.texts(of: item))
                summary.matched += 1
            } else {
                let id = firstNewID + summary.added
                try database.run(Self.insertTextsSQL, [SQLValue(id)] + Self.texts(of: item))
                try database.run(
                    Self.insertEpisodeSQL,
                    [SQLValue(id)] + Self.values(of: item) + [
                        .text(EpisodeUUID.make()), SQLValue(feedID), .text(protection.rawValue),
                        SQLValue(now), SQLValue(item.publishedAt ?? dateAbove), SQLValue(markNew ? 1 : 0),
                    ])
                summary.added += 1
                if markNew { summary.newEpisodeIDs.append(id) }
            }
        }
        if summary.added > 0 { try indexNewEpisodes(firstNewID..<(firstNewID + summary.added), of: feedID) }
        for id in known.unclaimed {
            try database.run(
                "UPDATE episodes SET in_feed = 0 WHERE id = ? AND feed_id = ? AND in_feed = 1",
                [.integer(id), SQLValue(feedID)])
            summary.dropped += database.changes
        }
        return summary
    }

    /// The media key, whichever way it is stored.
    static let mediaKey = """
        CASE typeof(media_key) WHEN 'integer' THEN substr(source_url, media_key + 1) ELSE media_key END
        """

    private static let metadataColumns = """
        title, source_url, media_key, guid, published_at, duration_ms, enclosure_length, enclosure_type, link,
        image_url, episode_number, season_number, episode_type, explicit, chapters_url, author
        """

    private static let updateEpisodeSQL = """
        UPDATE episodes SET (\(metadataColumns)) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?),
            in_feed = 1, sort_date = coalesce(?5, sort_date), feed_id = ?
        WHERE id = ?
        """

    private static let insertEpisodeSQL = """
        INSERT INTO episodes (id, \(metadataColumns), uuid, feed_id, protection, created_at, sort_date, is_new, state)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'new')
        """

    /// A new episode's texts, written just before it (even when it has none: the row tells the
    /// triggers that the merge indexes and counts the episode itself).
    private static let insertTextsSQL = """
        INSERT INTO episode_texts (episode_id, description, chapters, transcripts, persons) VALUES (?, ?, ?, ?, ?)
        """

    /// A known episode's texts: written only when one changed (a refresh rewrites every episode;
    /// the search index is touched only for a new description), and a row only when it has one.
    private static let upsertTextsSQL = """
        INSERT INTO episode_texts (episode_id, description, chapters, transcripts, persons)
        SELECT ?1, ?2, ?3, ?4, ?5
        WHERE coalesce(?2, ?3, ?4, ?5) IS NOT NULL OR EXISTS (SELECT 1 FROM episode_texts WHERE episode_id = ?1)
        ON CONFLICT (episode_id) DO UPDATE SET
            description = excluded.description, chapters = excluded.chapters, transcripts = excluded.transcripts,
            persons = excluded.persons
        WHERE (description, chapters, transcripts, persons)
            IS NOT (excluded.description, excluded.chapters, excluded.transcripts, excluded.persons)
        """

    /// Adds the episodes `ids` of `feedID`, just inserted, to the search index in one statement,
    /// and counts the feed's episodes again.
    ///
    /// One statement because FTS5 writes out what it holds in memory at the start of every
    /// statement that needs a statement journal (each INSERT with triggers): indexed by a trigger
    /// one by one, every episode of a subscription became a segment of the index of its own, and
    /// an import took five times as long.
    private func indexNewEpisodes(_ ids: Range<Int>, of feedID: Int) throws(StoreError) {
        try database.run(
            """
            INSERT INTO episode_search (rowid, title, podcast, description)
            SELECT episodes.id, episodes.title, feeds.title, search_text(texts.description)
            FROM episodes
            LEFT JOIN feeds ON feeds.id = episodes.feed_id
            LEFT JOIN episode_texts AS texts ON texts.episode_id = episodes.id
            WHERE episodes.id >= ? AND episodes.id < ?
            ORDER BY episodes.id
            """, [SQLValue(ids.lowerBound), SQLValue(ids.upperBound)])
        try database.run(
            "UPDATE feeds SET episode_count = (SELECT count(*) FROM episodes WHERE feed_id = ?1) WHERE id = ?1",
            [SQLValue(feedID)])
    }

    private static func values(of item: EpisodeMetadata) -> [SQLValue] {
        [
            .text(item.title), .text(item.sourceURL), storedMediaKey(item.mediaKey, of: item.sourceURL), SQLValue(item.guid),
            SQLValue(item.publishedAt), SQLValue(item.durationMilliseconds), SQLValue(item.enclosureLength),
            SQLValue(item.enclosureType), SQLValue(item.link), SQLValue(item.imageURL),
            SQLValue(item.episodeNumber), SQLValue(item.seasonNumber), SQLValue(item.episodeType),
            SQLValue(item.explicit.map { $0 ? 1 : 0 }), SQLValue(item.chaptersURL), SQLValue(item.author),
        ]
    }

    /// `media_key` as stored (see 006_scale.sql): how many characters the key drops from the start
    /// of the URL when it is the URL's end, else the key itself.
    static func storedMediaKey(_ key: String, of url: String) -> SQLValue {
        let (urlBytes, keyBytes) = (url.utf8, key.utf8)
        guard keyBytes.count <= urlBytes.count, urlBytes.suffix(keyBytes.count).elementsEqual(keyBytes) else {
            return .text(key)
        }
        return SQLValue(url.unicodeScalars.count - key.unicodeScalars.count)
    }

    private static func texts(of item: EpisodeMetadata) -> [SQLValue] {
        [SQLValue(item.description), SQLValue(item.chaptersJSON), SQLValue(item.transcriptsJSON), SQLValue(item.personsJSON)]
    }
}

