/// What the words of a search stand for in one full-text index: the index's own terms that begin
/// with each word (as folded by its tokenizer), read from its vocabulary (`fts5vocab`).
///
/// They say, without reading a row, how many rows a search can match at most, and make a query of
/// exact terms, whose rows FTS5 reads as it goes. A prefix query ("krak"*) first merges every row
/// of every term it covers, each time it is run: 80 ms for a word in half of a million episodes,
/// on each of a page's hundred probes when a search is listed newest first.
struct SearchTerms {
    /// The query: each word's terms ORed, the words ANDed (`("krakow" OR "krakowian") AND ("zurich")`);
    /// a word of more than `termLimit` terms stays a prefix.
    let match: String
    /// The fewest rows any word's terms are in (past `limit`, perhaps fewer than that): no more
    /// rows than this match.
    let bound: Int
    /// Whether each word is one term, so `match` ranks as the prefixes do (BM25 weighs each
    /// term of an OR by its own rarity).
    let isOneTermEach: Bool

    /// More terms than this to a word and it is asked as a prefix: FTS5 walks an OR's terms side by side.
    static let termLimit = 64

    /// Nil when a word begins no term of `index` ("episode_search" or "transcript_search"), so
    /// that nothing in it matches. `folded` are the words as the index's tokenizer folds them.
    /// Rows are counted no further than `limit` + 1 for each word as a term of its own: the
    /// vocabulary counts a term's rows by reading them all (40 ms for a word in every segment of
    /// 10,000 transcripts), so it is asked only about the longer terms a word begins.
    init?(folded: [String], index: String, limit: Int, database: Database) throws(StoreError) {
        let vocabulary = "temp.\(index)_terms"
        try database.execute("CREATE VIRTUAL TABLE IF NOT EXISTS \(vocabulary) USING fts5vocab(main, \(index), row)")
        var groups: [String] = []
        var bound = Int.max
        var isOneTermEach = true
        for word in folded {
            let own = Int(
                try database.rows(
                    "SELECT count(*) FROM (SELECT 1 FROM \(index) WHERE \(index) MATCH ? LIMIT ?)",
                    [.text("\"\(word)\""), SQLValue(limit + 1)]
                ).first?.int(0) ?? 0)
            // Every longer term that begins with the word sorts above it and below the word and the
            // last code point.
            let longer = try database.rows(
                "SELECT term, doc FROM \(vocabulary) WHERE term > ?1 AND term < ?1 || char(1114111)", [.text(word)])
            let terms = (own > 0 ? [word] : []) + longer.compactMap { $0.string(0) }
            guard !terms.isEmpty else { return nil }
            bound = min(bound, own + longer.reduce(0) { $0 + Int($1.int(1) ?? 0) })
            isOneTermEach = isOneTermEach && terms.count == 1
            groups.append(
                terms.count > Self.termLimit
                    ? "\"\(word)\"*" : "(" + terms.map { "\"\($0)\"" }.joined(separator: " OR ") + ")")
        }
        match = groups.joined(separator: " AND ")
        self.bound = bound
        self.isOneTermEach = isOneTermEach
    }

    /// `words` as the indexes' tokenizer folds them (case, accents), in order: given to an index of
    /// the same tokenizer in the connection's temporary database and read back from its vocabulary.
    static func folded(_ words: [String], database: Database) throws(StoreError) -> [String] {
        try database.execute(
            """
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_folding
                USING fts5(word, tokenize = 'unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_folding_terms USING fts5vocab(temp, search_folding, instance);
            DELETE FROM temp.search_folding;
            """)
        for (place, word) in words.enumerated() {
            try database.run(
                "INSERT INTO temp.search_folding (rowid, word) VALUES (?, ?)", [SQLValue(place), .text(word)])
        }
        let rows = try database.rows("SELECT doc, term FROM temp.search_folding_terms ORDER BY doc, offset")
        try database.execute("DELETE FROM temp.search_folding")
        return rows.compactMap { $0.string(1) }
    }
}
