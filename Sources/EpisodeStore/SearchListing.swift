/// The SQL of a search's listing and of its count: the episodes whose texts (`episode_search`)
/// or one of whose transcript segments (`transcript_search`, schema 16, without the text since
/// 17) have every word, with where each was found (`SearchHit`).
///
/// Ranking reads and orders every match before the first one is shown, which for a word in half of
/// a million episodes took 2 s. So the plan is chosen by how many episodes' texts match, counted
/// no further than `EpisodeFilter.rankedSearchLimit`: up to it, best match first; past it, newest
/// first, reading the episodes in the order of `list` and asking the indexes about each, with
/// exact terms (`SearchTerms`): a page of a word in half the library costs a hundred probes.
struct SearchListing {
    let order: SearchOrder
    /// Its last two parameters are the page's LIMIT and OFFSET, after `values`.
    let pageSQL: String
    let values: [SQLValue]
    let countSQL: String
    let countValues: [SQLValue]

    /// Nil for a search with no word in it, which matches nothing.
    /// - Throws: `StoreError.searchTooLong` for a search of too many words (`SearchQuery`).
    init?(_ filter: EpisodeFilter, text: String, database: Database) throws(StoreError) {
        guard let words = try SearchQuery.words(text), let prefixes = try SearchQuery.match(text) else { return nil }
        let folded = try SearchTerms.folded(words, database: database)
        let limit = max(filter.rankedSearchLimit, 0)
        // What matches in each index, as a query of exact terms; a query of no term in the index
        // (the prefixes) when nothing can.
        var exact: [String] = []
        var found: [Bool] = []
        var ranked = true
        var textRanksAsPrefixes = false
        for index in ["episode_search", "transcript_search"] {
            guard let terms = try SearchTerms(folded: folded, index: index, limit: limit, database: database) else {
                exact.append(prefixes)
                found.append(false)
                continue
            }
            exact.append(terms.match)
            found.append(true)
            if index == "episode_search" { textRanksAsPrefixes = terms.isOneTermEach }
            // Counted only when the vocabulary cannot tell, and no further than the limit.
            if ranked && terms.bound > limit {
                let count =
                    try database.rows(
                        "SELECT count(*) FROM (SELECT 1 FROM \(index) WHERE \(index) MATCH ? LIMIT ?)",
                        [.text(terms.match), SQLValue(limit + 1)]
                    ).first?.int(0) ?? 0
                ranked = count <= limit
            }
        }
        order = ranked ? .bestMatch : .newest
        // The episodes' texts are ranked as they always were, by the prefixes (or by exact terms
        // that rank the same, which FTS5 reads without merging every row of a prefix first).
        let textMatch = SQLValue.text(ranked && !textRanksAsPrefixes ? prefixes : exact[0])
        let transcriptMatch = SQLValue.text(exact[1])

        var unsearched = filter
        unsearched.search = nil
        let base = ListingQuery(unsearched)
        let joins = EpisodeListing.feedJoin + " " + EpisodeListing.playbackJoin
        let segments = Library.segmentsPerEpisode
        // Each episode found, once: its BM25 rank when its texts match, and its first matching
        // segment (segments are numbered in order of start) when its transcript does.
        let hits = """
            WITH hits (id, rank, segment) AS (
                SELECT id, min(rank), min(segment) FROM (
                    SELECT rowid AS id, rank AS rank, NULL AS segment FROM episode_search WHERE episode_search MATCH ?
                    UNION ALL
                    SELECT rowid / \(segments), NULL, rowid FROM transcript_search WHERE transcript_search MATCH ?
                ) GROUP BY id
            )
            """
        let hitsFrom = "hits JOIN episodes ON episodes.id = hits.id " + joins
        countSQL = "\(hits) SELECT count(*) FROM \(hitsFrom) \(base.whereClause)"
        countValues = [textMatch, transcriptMatch] + base.values
        switch order {
        case .bestMatch:
            let ranked = "page.rank IS NULL, page.rank, \(ListingQuery.newest)"
            pageSQL = """
                \(hits)
                SELECT \(EpisodeListing.columns), page.rank IS NOT NULL AS \(SearchHit.inTextsColumn),
                    (SELECT start_ms FROM transcript_segments WHERE rowid = page.segment) AS \(SearchHit.transcriptColumn)
                FROM (
                    SELECT hits.id AS id, hits.rank AS rank, hits.segment AS segment FROM \(hitsFrom)
                    \(base.whereClause) ORDER BY \(ranked.replacing("page.", with: "hits.")) LIMIT ? OFFSET ?
                ) AS page
                JOIN episodes ON episodes.id = page.id \(joins)
                ORDER BY \(ranked)
                """
            values = [textMatch, transcriptMatch] + base.values
        case .newest:
            // An index that has not every word is not asked about each episode.
            let (inTexts, inTranscript) = (found[0], found[1])
            let textProbe = "EXISTS (SELECT 1 FROM episode_search WHERE episode_search MATCH ? AND rowid = episodes.id)"
            let ownSegments = "rowid BETWEEN episodes.id * \(segments) AND episodes.id * \(segments) + \(segments - 1)"
            // The index is asked only about an episode with a transcript.
            let transcriptProbe = """
                (EXISTS (SELECT 1 FROM transcript_segments WHERE \(ownSegments))
                    AND EXISTS (SELECT 1 FROM transcript_search WHERE transcript_search MATCH ? AND \(ownSegments)))
                """
            let firstSegment = """
                (SELECT start_ms FROM transcript_segments WHERE rowid = (
                    SELECT min(rowid) FROM transcript_search WHERE transcript_search MATCH ? AND \(ownSegments)))
                """
            let condition = "(\(inTexts ? textProbe : "0") OR \(inTranscript ? transcriptProbe : "0"))"
            let probed = (inTexts ? [textMatch] : []) + (inTranscript ? [transcriptMatch] : [])
            pageSQL = """
                SELECT \(EpisodeListing.columns), \(inTexts ? textProbe : "0") AS \(SearchHit.inTextsColumn),
                    \(inTranscript ? firstSegment : "NULL") AS \(SearchHit.transcriptColumn)
                FROM \(base.from) WHERE \((base.conditions + [condition]).joined(separator: " AND "))
                ORDER BY \(base.order) LIMIT ? OFFSET ?
                """
            values = probed + base.values + probed
        }
    }
}
