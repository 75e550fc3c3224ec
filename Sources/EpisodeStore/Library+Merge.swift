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
        _ items: [EpisodeMetadata], into feedID: Int, protection: Protection, markNew: Bool,
        in writer: borrowing Writer
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

        let now = writer.now
        // New episodes are numbered here, so that they are indexed together once all are written.
        let firstNewID = Int(try database.rows("SELECT coalesce(max(id), 0) + 1 FROM episodes")[0].int(0) ?? 1)
        // A dateless item sorts just below the dated item before it in the document (feeds list
        // newest first), or below "now" at the top: its order in the feed is kept.
        var dateAbove = now
        for (item, match) in zip(distinct, matches) {
            if let published = item.publishedAt { dateAbove = min(published, now) } else { dateAbove -= 1 }
            if let match {
                try writer.run(Self.updateEpisodeSQL, Self.values(of: item) + [SQLValue(feedID), .integer(match)])
                try writer.run(Self.updateTextsSQL, [.integer(match)] + Self.texts(of: item))
                summary.matched += 1
            } else {
                let id = firstNewID + summary.added
                try writer.run(
                    Self.insertEpisodeSQL,
                    [SQLValue(id)] + Self.values(of: item) + [
                        .blob(EpisodeUUID.makeBytes()), SQLValue(feedID), .text(protection.rawValue),
                        SQLValue(now), SQLValue(item.publishedAt ?? dateAbove), SQLValue(markNew ? 1 : 0),
                    ])
                try writer.run(Self.insertTextsSQL, [SQLValue(id)] + Self.texts(of: item))
                summary.added += 1
                if markNew { summary.newEpisodeIDs.append(id) }
            }
        }
        if summary.added > 0 {
            try indexForSearch(firstNewID..<(firstNewID + summary.added), in: writer)
            try writer.run(
                "UPDATE feeds SET episode_count = (SELECT count(*) FROM episodes WHERE feed_id = ?1) WHERE id = ?1",
                [SQLValue(feedID)])
        }
        for id in known.unclaimed {
            try writer.run(
                "UPDATE episodes SET in_feed = 0 WHERE id = ? AND feed_id = ? AND in_feed = 1",
                [.integer(id), SQLValue(feedID)])
            summary.dropped += writer.changes
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

    /// A known episode as the document gives it, written only when something changed: a refresh
    /// of a feed reads all its items, and an UPDATE that changes a row copies its pages to the
    /// statement journal its triggers call for.
    private static let updateEpisodeSQL = """
        UPDATE episodes SET (\(metadataColumns)) = (\(metadataValues)),
            in_feed = 1, sort_date = coalesce(?5, sort_date), feed_id = ?17
        WHERE id = ?18 AND (\(metadataColumns), in_feed, sort_date, feed_id)
            IS NOT (\(metadataValues), 1, coalesce(?5, sort_date), ?17)
        """

    /// The parameters `values(of:)` binds, numbered, in the order of `metadataColumns`.
    private static let metadataValues = (1...16).map { "?\($0)" }.joined(separator: ", ")

    private static let insertEpisodeSQL = """
        INSERT INTO episodes (id, \(metadataColumns), uuid, feed_id, protection, created_at, sort_date, is_new, state)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'new')
        """

    /// A new episode's texts: every episode has a row of them, even with none (schema 7), so that
    /// one a feed adds later is an update, indexed by its trigger.
    static let insertTextsSQL = """
        INSERT INTO episode_texts (episode_id, description, chapters, transcripts, persons) VALUES (?, ?, ?, ?, ?)
        """

    /// A known episode's texts, written only when one changed: a refresh rewrites every episode of
    /// a feed that changed, and the search index is touched only for a new description.
    private static let updateTextsSQL = """
        UPDATE episode_texts SET (description, chapters, transcripts, persons) = (?2, ?3, ?4, ?5)
        WHERE episode_id = ?1 AND (description, chapters, transcripts, persons) IS NOT (?2, ?3, ?4, ?5)
        """

    private static func values(of item: EpisodeMetadata) -> [SQLValue] {
        [
            .text(item.title), .text(item.sourceURL), storedMediaKey(item.mediaKey, of: item.sourceURL),
            SQLValue(item.guid),
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
        [
            SQLValue(item.description), SQLValue(item.chaptersJSON), SQLValue(item.transcriptsJSON),
            SQLValue(item.personsJSON),
        ]
    }
}
