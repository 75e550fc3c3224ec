import EpisodeStore

/// gPodder's `Database` file, read by the schema of its `schema.py` (versions 1 to 8 differ in
/// columns podcli does not need but for `episode_art_url`): `podcast` (with HTTP credentials) and
/// `episode` (`is_new` 1 until played or marked old; `current_position` and `total_time` in
/// seconds, `published` and `current_position_updated` Unix seconds).
struct GPodderDatabase {
    let file: ForeignTables

    init(_ file: ForeignTables) { self.file = file }

    static func isDatabase(_ tables: Set<String>) -> Bool { tables.isSuperset(of: ["podcast", "episode"]) }

    /// - Throws: `ForeignLibraryError` or `StoreError`.
    func read() throws -> ForeignLibrary {
        var library = ForeignLibrary(app: .gPodder)
        let (podcastColumns, episodeColumns) = try (file.columns(of: "podcast"), file.columns(of: "episode"))
        try ForeignTables.require(["id", "title", "url"], in: podcastColumns, of: "podcast", app: .gPodder)
        try ForeignTables.require(
            ["podcast_id", "title", "url", "guid", "is_new", "current_position"], in: episodeColumns, of: "episode",
            app: .gPodder)
        let podcast = { (name: String) in ForeignTables.column("podcast", name, in: podcastColumns) }
        let episode = { (name: String) in ForeignTables.column("episode", name, in: episodeColumns) }
        var feedIndex: [Int64: Int] = [:]
        for row in try file.database.rows(
            """
            SELECT id, title, url, \(podcast("link")), \(podcast("description")), \(podcast("cover_url")),
                \(podcast("auth_username")), \(podcast("auth_password"))
            FROM podcast ORDER BY id
            """)
        {
            let url = ImportedFeed.url(row.string(2) ?? "", user: row.string(6), password: row.string(7))
            guard FeedUpdater.isFetchable(url) else {
                library.skipped.feedsNotFetchable += 1
                continue
            }
            var metadata = FeedMetadata(
                title: StoredText.capped(row.string(1).flatMap { $0.isEmpty ? nil : $0 } ?? url))
            (metadata.link, metadata.description, metadata.imageURL) = (row.string(3), row.string(4), row.string(5))
            feedIndex[row.int(0) ?? -1] = library.feeds.count
            library.feeds.append(ImportedFeed(url: url, metadata: metadata))
        }
        for row in try file.database.rows(
            """
            SELECT podcast_id, title, url, guid, \(episode("published")), \(episode("link")),
                \(episode("description")), \(episode("episode_art_url")), \(episode("total_time")),
                \(episode("file_size")), \(episode("mime_type")), is_new, current_position,
                \(episode("current_position_updated"))
            FROM episode ORDER BY id
            """)
        {
            guard let index = row.int(0).flatMap({ feedIndex[$0] }) else { continue }
            guard let audio = row.string(2), !audio.isEmpty else {
                library.skipped.episodesWithoutAudio += 1
                continue
            }
            var metadata = EpisodeMetadata(
                title: row.string(1).flatMap { $0.isEmpty ? nil : $0 } ?? audio, audioURL: audio)
            metadata.guid = row.string(3).flatMap { $0.isEmpty ? nil : $0 }
            metadata.publishedAt = row.int(4).flatMap { $0 > 0 ? Int($0) : nil }
            metadata.link = row.string(5).flatMap { $0.isEmpty ? nil : $0 }
            metadata.description = row.string(6).flatMap { $0.isEmpty ? nil : $0 }
            metadata.imageURL = row.string(7)
            let total = Int(row.int(8) ?? 0)
            metadata.durationMilliseconds = total > 0 ? total * 1000 : nil
            metadata.enclosureLength = row.int(9).flatMap { $0 > 0 ? Int($0) : nil }
            metadata.enclosureType = row.string(10)
            var imported = ImportedEpisode(metadata: metadata)
            // gPodder clears is_new when playing starts, so a position short of the end is where
            // the listener is; else not new is played.
            let position = Int(row.int(12) ?? 0)
            if position > 0 && (total == 0 || position < total) {
                imported.state = PlaybackState(positionMilliseconds: position * 1000, played: false)
            } else if row.int(11) == 0 {
                imported.state = PlaybackState(positionMilliseconds: 0, played: true)
            }
            imported.lastPlayed = row.int(13).flatMap { $0 > 0 ? Int($0) : nil }
            library.feeds[index].episodes.append(imported)
        }
        return library
    }
}
