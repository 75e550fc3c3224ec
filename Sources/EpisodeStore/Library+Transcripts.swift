/// Episodes' transcripts, in segments (schema 16), and their search index, kept in step in the
/// transaction that sets, replaces or removes a transcript; deleting an episode deletes its
/// transcript and its index entries (the schema's triggers).
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
        }.prefix(Self.segmentsPerEpisode)
        try write { writer throws(StoreError) in
            guard !(try writer.rows("SELECT 1 FROM episodes WHERE id = ?", [SQLValue(episodeID)]).isEmpty) else {
                throw .episodeNotFound("\(episodeID)")
            }
            let range = Self.segmentRange(of: episodeID)
            try writer.run("DELETE FROM transcript_segments WHERE rowid BETWEEN ? AND ?", range)
            for (place, (_, segment)) in ordered.enumerated() {
                try writer.run(
                    "INSERT INTO transcript_segments (rowid, start_ms, end_ms, speaker, text) VALUES (?, ?, ?, ?, ?)",
                    [
                        SQLValue(episodeID * Self.segmentsPerEpisode + place), SQLValue(segment.startMilliseconds),
                        segment.endMilliseconds.map(SQLValue.init) ?? .null, segment.speaker.map(SQLValue.text) ?? .null,
                        .text(segment.text),
                    ])
            }
            // Indexed in one statement, not by a trigger on each insert (see schema 7).
            try writer.run(
                """
                INSERT INTO transcript_search (rowid, text)
                SELECT rowid, text FROM transcript_segments WHERE rowid BETWEEN ? AND ?
                """, range)
        }
    }

    /// Removes the episode's transcript, if it has one.
    public func removeTranscript(of episodeID: Int) throws(StoreError) {
        try write { writer throws(StoreError) in
            try writer.run("DELETE FROM transcript_segments WHERE rowid BETWEEN ? AND ?", Self.segmentRange(of: episodeID))
        }
    }

    /// The episode's transcript in order of start; empty when it has none.
    public func transcript(of episodeID: Int) throws(StoreError) -> [TranscriptSegment] {
        try database.rows(
            "SELECT start_ms, end_ms, speaker, text FROM transcript_segments WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
            Self.segmentRange(of: episodeID)
        ).map { row in
            TranscriptSegment(
                startMilliseconds: Int(row.int(0) ?? 0), endMilliseconds: row.int(1).map(Int.init),
                speaker: row.string(2), text: row.string(3) ?? "")
        }
    }

    /// The rowids the episode's segments may have.
    static func segmentRange(of episodeID: Int) -> [SQLValue] {
        [SQLValue(episodeID * segmentsPerEpisode), SQLValue(episodeID * segmentsPerEpisode + segmentsPerEpisode - 1)]
    }
}
