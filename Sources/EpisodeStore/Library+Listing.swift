extension Library {
    /// Hands `body` the episodes `filter` selects, one at a time as SQLite reads them, until
    /// `page` ends or `body` returns false: newest first (ties in the feed's order), or for a
    /// search best match first. Memory stays the same whatever the count.
    ///
    /// Each query starts from what it can find through an index without reading other episodes:
    /// the search index, the played, starred, new or downloaded episodes (partial indexes of
    /// schemas 6 and 10), a feed's episodes, or the newest of all, read in the order shown.
    public func forEachListing(
        _ filter: EpisodeFilter, page: ListingPage = .all, _ body: (EpisodeListing) -> Bool
    ) throws(StoreError) {
        let window = [SQLValue(page.limit ?? -1), SQLValue(max(page.offset, 0))]
        if let text = filter.search {
            guard let search = try SearchListing(filter, text: text, database: database) else { return }
            try database.forEachRow(search.pageSQL, search.values + window) { row in body(EpisodeListing(row: row)) }
            return
        }
        let query = ListingQuery(filter)
        let sql = """
            SELECT \(EpisodeListing.columns) FROM \(query.from)
            \(query.whereClause) ORDER BY \(query.order) LIMIT ? OFFSET ?
            """
        try database.forEachRow(sql, query.values + window) { row in body(EpisodeListing(row: row)) }
    }

    /// The order `forEachListing` lists a search in (nil when `filter` is not a search, or
    /// searches for no word): best match first, unless more episodes' texts match than
    /// `filter.rankedSearchLimit`.
    public func searchOrder(_ filter: EpisodeFilter) throws(StoreError) -> SearchOrder? {
        guard let text = filter.search else { return nil }
        return try SearchListing(filter, text: text, database: database)?.order
    }

    /// The episodes `filter` selects, in the order `forEachListing` reads them.
    public func listing(_ filter: EpisodeFilter, page: ListingPage = .all) throws(StoreError) -> [EpisodeListing] {
        var listings: [EpisodeListing] = []
        try forEachListing(filter, page: page) { listing in
            listings.append(listing)
            return true
        }
        return listings
    }

    /// How many episodes `filter` selects. Without a filter, or for one feed, from the counts
    /// each feed keeps (schema 6's triggers); otherwise through the same indexes as the listing.
    public func count(_ filter: EpisodeFilter) throws(StoreError) -> Int {
        var unfiltered = filter
        unfiltered.feedID = nil
        if !unfiltered.isFiltered {
            let sql =
                filter.feedID == nil
                ? """
                SELECT (SELECT coalesce(sum(episode_count), 0) FROM feeds)
                    + (SELECT count(*) FROM episodes WHERE feed_id IS NULL)
                """
                : "SELECT coalesce(sum(episode_count), 0) FROM feeds WHERE id = ?"
            let values = filter.feedID.map { [SQLValue($0)] } ?? []
            return Int(try database.rows(sql, values).first?.int(0) ?? 0)
        }
        if let text = filter.search {
            guard let search = try SearchListing(filter, text: text, database: database) else { return 0 }
            return Int(try database.rows(search.countSQL, search.countValues).first?.int(0) ?? 0)
        }
        let query = ListingQuery(filter)
        return Int(
            try database.rows("SELECT count(*) FROM \(query.from) \(query.whereClause)", query.values).first?.int(0)
                ?? 0)
    }
}

extension Library {
    /// The largest episode number in use (0 for an empty library).
    public func largestEpisodeID() throws(StoreError) -> Int {
        Int(try database.rows("SELECT coalesce(max(id), 0) FROM episodes").first?.int(0) ?? 0)
    }
}

/// The FROM, WHERE and ORDER BY of a listing of `EpisodeFilter` (its search aside: see
/// `SearchListing`), with its bound values.
struct ListingQuery {
    let from: String
    let conditions: [String]
    let values: [SQLValue]
    let order: String

    static let newest = "episodes.sort_date DESC, episodes.id"

    init(_ filter: EpisodeFilter) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        let newest = Self.newest
        let joins = EpisodeListing.feedJoin + " " + EpisodeListing.playbackJoin
        if filter.onlyPlayed {
            // CROSS JOIN: SQLite keeps this order, from the played episodes to their rows.
            from =
                "playback_state AS playback CROSS JOIN episodes ON episodes.id = playback.episode_id "
                + EpisodeListing.feedJoin
            order = newest
        } else if filter.onlyStarred {
            from = "episodes INDEXED BY episodes_starred " + joins
            order = newest
        } else if filter.onlyNew {
            from = "episodes INDEXED BY episodes_new " + joins
            order = newest
        } else if filter.onlyDownloaded {
            from = "episodes INDEXED BY episodes_downloaded " + joins
            order = newest
        } else {
            from = "episodes " + joins
            order = newest
        }
        if let feedID = filter.feedID {
            conditions.append("episodes.feed_id = ?")
            values.append(SQLValue(feedID))
        }
        // Written out, not bound: SQLite uses a partial index only for its own condition.
        if filter.onlyNew { conditions.append("episodes.is_new = 1 AND coalesce(playback.played, 0) = 0") }
        if filter.onlyDownloaded { conditions.append("episodes.state = 'downloaded'") }
        if filter.onlyPlayed { conditions.append("playback.played = 1") }
        if filter.onlyStarred { conditions.append("episodes.starred = 1") }
        self.conditions = conditions
        self.values = values
    }

    var whereClause: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }
}
