/// Episodes' transcripts: their segments' times and speakers (schema 16), their texts once per
/// episode, deflated (`TranscriptTexts`, schema 18), and their contentless search index, kept in
/// step in the transaction that sets, replaces or removes a transcript or deletes its episode.
/// The index forgets a segment only when given its text again, which only the store can inflate:
/// every deletion goes through `forgetTranscript(of:in:)` (schema 18's foreign key refuses to
/// delete an episode whose transcript is still there).
extension Library {
    /// The most segments a transcript keeps: a segment's rowid is its episode's id times this
    /// plus its place (schema 16). At 30 s a segment, a year of audio.
    static let segmentsPerEpisode = 1 << 20

    /// Sets the episode's transcript, replacing any it had, in one transaction. Segments are kept
    /// in order of start; past `segmentsPerEpisode`, the rest are not kept.
    /// - Throws: `StoreError.episodeNotFound` when no episode has the number.
    public func setTranscript(_ segments: [TranscriptSegment], of episodeID: Int) throws(StoreError) {
        let ordered = segments.enumerated().sorted {
            ($0.element.startMilliseconds, $0.offset) < ($1.element.startMilliseconds, $1.offset)
        }.prefix(Self.segmentsPerEpisode).map(\.element)
        let texts = try TranscriptTexts.stored(ordered.map(\.text))
        try write { writer throws(StoreError) in
            guard !(try writer.rows("SELECT 1 FROM episodes WHERE id = ?", [SQLValue(episodeID)]).isEmpty) else {
                throw .episodeNotFound("\(episodeID)")
            }
            try forgetTranscript(of: episodeID, in: writer)
            guard !ordered.isEmpty else { return }
            let first = episodeID * Self.segmentsPerEpisode
            for (place, segment) in ordered.enumerated() {
                try writer.run(
                    "INSERT INTO transcript_segments (rowid, start_ms, end_ms, speaker) VALUES (?, ?, ?, ?)",
                    [
                        SQLValue(first + place), SQLValue(segment.startMilliseconds),
                        SQLValue(segment.endMilliseconds), SQLValue(segment.speaker),
                    ])
            }
            try writer.run(
                "INSERT INTO transcript_texts (episode_id, texts) VALUES (?, ?)", [SQLValue(episodeID), texts.value])
            // Indexed in one statement, not by a trigger on each insert (see schema 7).
            try writer.run(
                "INSERT INTO transcript_search (rowid, text) SELECT ? + key, value FROM json_each(?)",
                [SQLValue(first), .text(texts.json)])
        }
    }

    /// Removes the episode's transcript, if it has one.
    public func removeTranscript(of episodeID: Int) throws(StoreError) {
        try write { writer throws(StoreError) in try forgetTranscript(of: episodeID, in: writer) }
    }

    /// The episode's transcript in order of start; empty when it has none.
    public func transcript(of episodeID: Int) throws(StoreError) -> [TranscriptSegment] {
        let rows = try database.rows(Self.storedTextsQuery, [SQLValue(episodeID)])
        guard let stored = try Self.storedTexts(rows, of: episodeID) else { return [] }
        return try database.rows(
            """
            SELECT start_ms, end_ms, speaker, texts.value FROM transcript_segments
            JOIN json_each(?) AS texts ON transcript_segments.rowid = ? + texts.key
            WHERE transcript_segments.rowid BETWEEN ? AND ? ORDER BY transcript_segments.rowid
            """,
            [.text(stored), SQLValue(episodeID * Self.segmentsPerEpisode)] + Self.segmentRange(of: episodeID)
        ).map { row in
            TranscriptSegment(
                startMilliseconds: Int(row.int(0) ?? 0), endMilliseconds: row.int(1).map(Int.init),
                speaker: row.string(2), text: row.string(3) ?? "")
        }
    }

    /// Deletes the episode's transcript, if it has one, and makes the index forget its words
    /// (given back their texts, as a contentless index needs).
    func forgetTranscript(of episodeID: Int, in writer: borrowing Writer) throws(StoreError) {
        let rows = try writer.rows(Self.storedTextsQuery, [SQLValue(episodeID)])
        guard let stored = try Self.storedTexts(rows, of: episodeID) else { return }
        try writer.run(
            """
            INSERT INTO transcript_search (transcript_search, rowid, text)
            SELECT 'delete', ? + key, value FROM json_each(?)
            """, [SQLValue(episodeID * Self.segmentsPerEpisode), .text(stored)])
        try writer.run("DELETE FROM transcript_segments WHERE rowid BETWEEN ? AND ?", Self.segmentRange(of: episodeID))
        try writer.run("DELETE FROM transcript_texts WHERE episode_id = ?", [SQLValue(episodeID)])
    }

    /// The ids of the episodes of a feed that have a transcript, in one query however many it has.
    func transcribedEpisodes(ofFeed feedID: Int, in writer: borrowing Writer) throws(StoreError) -> Set<Int> {
        Set(
            try writer.rows(
                "SELECT episode_id FROM transcript_texts WHERE episode_id IN (SELECT id FROM episodes WHERE feed_id = ?)",
                [SQLValue(feedID)]
            ).compactMap { $0.int(0).map(Int.init) })
    }

    /// Reads the stored texts of the episode whose id it is given.
    private static let storedTextsQuery = "SELECT texts FROM transcript_texts WHERE episode_id = ?"

    /// The JSON array of the episode's segments' texts (`TranscriptTexts`) from the rows of
    /// `storedTextsQuery`; nil when it has no transcript.
    private static func storedTexts(_ rows: [Row], of episodeID: Int) throws(StoreError) -> String? {
        guard let row = rows.first else { return nil }
        return try TranscriptTexts.json(of: row.values[0], episodeID: episodeID)
    }

    /// The rowids the episode's segments may have.
    static func segmentRange(of episodeID: Int) -> [SQLValue] {
        [SQLValue(episodeID * segmentsPerEpisode), SQLValue(episodeID * segmentsPerEpisode + segmentsPerEpisode - 1)]
    }
}
