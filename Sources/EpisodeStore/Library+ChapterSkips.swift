/// The chapters a listener skips, kept by their start (milliseconds of media), so the choice
/// holds whatever the chapters' numbering becomes when they are read again.
extension Library {
    /// The starts of the episode's skipped chapters, in milliseconds.
    public func skippedChapterStarts(of episode: Episode) throws(StoreError) -> Set<Int> {
        Set(
            try database.rows(
                "SELECT start_ms FROM chapter_skips WHERE episode_id = ?", [SQLValue(episode.id)]
            ).compactMap { $0.int(0).map(Int.init) })
    }

    /// Skips (or no longer skips) the chapters of the episode starting at `starts` (milliseconds),
    /// in one transaction.
    public func setChaptersSkipped(_ skipped: Bool, starts: [Int], of episode: Episode) throws(StoreError) {
        try write { writer throws(StoreError) in
            for start in starts {
                try writer.run(
                    skipped
                        ? "INSERT OR IGNORE INTO chapter_skips (episode_id, start_ms) VALUES (?, ?)"
                        : "DELETE FROM chapter_skips WHERE episode_id = ? AND start_ms = ?",
                    [SQLValue(episode.id), SQLValue(start)])
            }
        }
    }
}
