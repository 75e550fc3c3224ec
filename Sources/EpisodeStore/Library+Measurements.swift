extension Library {
    /// Records what `file` measured, if it is still the episode's file (a file replaced while it
    /// was measured is measured again, as its own): one transaction. Replaces an earlier one.
    /// - Returns: false when the file is no longer recorded as it was.
    @discardableResult
    public func recordMeasurement(_ measurement: EpisodeMeasurement, of file: EpisodeFile) throws(StoreError) -> Bool {
        try recordMeasurement(
            of: file,
            [
                SQLValue(measurement.frames), SQLValue(measurement.sampleRate), SQLValue(measurement.loudnessLUFS),
                SQLValue(measurement.truePeakDBTP), .null,
            ])
    }

    /// Records that `file` could not be measured and why, so it is not tried again until it
    /// changes.
    @discardableResult
    public func recordMeasurementFailure(_ reason: String, of file: EpisodeFile) throws(StoreError) -> Bool {
        try recordMeasurement(of: file, [.null, .null, .null, .null, .text(reason)])
    }

    private func recordMeasurement(of file: EpisodeFile, _ values: [SQLValue]) throws(StoreError) -> Bool {
        try write { writer throws(StoreError) in
            let current = try database.rows(
                "SELECT 1 FROM files WHERE id = ? AND sha256 = ?", [SQLValue(file.id), .text(file.sha256)])
            guard !current.isEmpty else { return false }
            try writer.run(
                """
                INSERT OR REPLACE INTO measurements (episode_id, sha256, frames, sample_rate, loudness_lufs,
                                                     true_peak_dbtp, failure, measured_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [SQLValue(file.episodeID), .text(file.sha256)] + values + [SQLValue(writer.now)])
            return true
        }
    }

    /// The episode's measurement; nil when it has none, or its file could not be measured.
    public func measurement(of episode: Episode) throws(StoreError) -> EpisodeMeasurement? {
        try database.rows(
            """
            SELECT frames, sample_rate, loudness_lufs, true_peak_dbtp FROM measurements
            WHERE episode_id = ? AND failure IS NULL
              AND EXISTS (SELECT 1 FROM files WHERE episode_id = measurements.episode_id AND sha256 = measurements.sha256)
            """, [SQLValue(episode.id)]
        ).first.map { row in
            EpisodeMeasurement(
                frames: Int(row.int(0)!), sampleRate: Int(row.int(1)!), loudnessLUFS: row.double(2),
                truePeakDBTP: row.double(3))
        }
    }

    /// Recorded files not measured as they are now (never, or before they changed), newest
    /// download first, at most `limit`.
    public func filesToMeasure(limit: Int) throws(StoreError) -> [EpisodeFile] {
        try database.rows(
            """
            SELECT \(EpisodeFile.columns) FROM files
            WHERE NOT EXISTS (
                SELECT 1 FROM measurements WHERE episode_id = files.episode_id AND sha256 = files.sha256)
            ORDER BY recorded_at DESC, id DESC LIMIT ?
            """, [SQLValue(limit)]
        ).map(EpisodeFile.init)
    }
}
