import EpisodeStore

/// AntennaPod's database export (Settings → Database export), read by the schema of its
/// `PodDBAdapter` and the columns `DBUpgrader` added since 1.6: `Feeds`, `FeedItems` (`read`: -1
/// new, 0 unplayed, 1 played; `pubDate` in ms), `FeedMedia` (`position`, `duration`,
/// `last_played_time` in ms), `Queue` (ordered by its id), `Favorites`.
struct AntennaPodExport {
    let file: ForeignTables

    init(_ file: ForeignTables) { self.file = file }

    static func isExport(_ tables: Set<String>) -> Bool {
        tables.isSuperset(of: ["Feeds", "FeedItems", "FeedMedia"])
    }

    /// `Feeds.state` of a feed kept without a subscription (AntennaPod 3.5).
    private static let notSubscribed: Int64 = 1
    /// `Feeds.feed_playback_speed` that means "the global speed".
    private static let globalSpeed = -1.0

    /// - Throws: `ForeignLibraryError` or `StoreError`.
    func read() throws -> ForeignLibrary {
        var library = ForeignLibrary(app: .antennaPod)
        let (feedColumns, itemColumns, mediaColumns) = try (
            file.columns(of: "Feeds"), file.columns(of: "FeedItems"), file.columns(of: "FeedMedia")
        )
        try ForeignTables.require(["id", "title", "download_url"], in: feedColumns, of: "Feeds", app: .antennaPod)
        try ForeignTables.require(["id", "title", "feed", "read"], in: itemColumns, of: "FeedItems", app: .antennaPod)
        try ForeignTables.require(["feeditem", "download_url"], in: mediaColumns, of: "FeedMedia", app: .antennaPod)
        let feed = { (name: String) in ForeignTables.column("Feeds", name, in: feedColumns) }
        var feedIndex: [Int64: Int] = [:]
        for row in try file.database.rows(
            """
            SELECT id, title, download_url, \(feed("link")), \(feed("description")), \(feed("author")),
                \(feed("language")), \(feed("image_url")), \(feed("username")), \(feed("password")),
                \(feed("state")), \(feed("auto_download")), \(feed("feed_playback_speed")),
                \(feed("feed_skip_intro")), \(feed("feed_skip_ending"))
            FROM Feeds ORDER BY id
            """)
        {
            guard row.int(10) != Self.notSubscribed else {
                library.skipped.feedsNotSubscribed += 1
                continue
            }
            let url = ImportedFeed.url(row.string(2) ?? "", user: row.string(8), password: row.string(9))
            guard FeedUpdater.isFetchable(url) else {
                library.skipped.feedsNotFetchable += 1
                continue
            }
            var metadata = FeedMetadata(title: StoredText.capped(row.string(1) ?? url))
            (metadata.link, metadata.description, metadata.author) = (row.string(3), row.string(4), row.string(5))
            (metadata.language, metadata.imageURL) = (row.string(6), row.string(7))
            var imported = ImportedFeed(url: url, metadata: metadata)
            Self.settings(of: row, into: &imported, skipped: &library.skipped)
            feedIndex[row.int(0) ?? -1] = library.feeds.count
            library.feeds.append(imported)
        }
        try readEpisodes(into: &library, feedIndex: feedIndex, itemColumns: itemColumns, mediaColumns: mediaColumns)
        return library
    }

    /// speed (-1 the global one), skip intro and ending (seconds, 0 none), auto-download (0
    /// off, 2 on, 1 the global setting since 3.8, "on under the global switch" before: both
    /// left to podcli's own setting).
    private static func settings(of row: Row, into feed: inout ImportedFeed, skipped: inout ForeignLibrary.Skipped) {
        if let speed = row.double(12), speed > 0, speed != globalSpeed {
            // podcli's steps are 0.05; a speed outside 0.5-3.0 is not taken (counted).
            feed.add(.speed, ConfigValue.number((speed * 20).rounded() / 20), skipped: &skipped)
        }
        if let intro = row.int(13), intro > 0 { feed.add(.skipIntro, "\(intro)", skipped: &skipped) }
        if let ending = row.int(14), ending > 0 { feed.add(.skipOutro, "\(ending)", skipped: &skipped) }
        switch row.int(11) {
        case 0: feed.add(.download, "none", skipped: &skipped)
        case 2: feed.add(.download, "new", skipped: &skipped)
        default: break
        }
    }

    private func readEpisodes(
        into library: inout ForeignLibrary, feedIndex: [Int64: Int], itemColumns: Set<String>,
        mediaColumns: Set<String>
    ) throws(StoreError) {
        let tables = try file.tables()
        let item = { (name: String) in ForeignTables.column("FeedItems", name, in: itemColumns) }
        let media = { (name: String) in ForeignTables.column("FeedMedia", name, in: mediaColumns) }
        let favourite =
            tables.contains("Favorites") ? "FeedItems.id IN (SELECT feeditem FROM Favorites)" : "0"
        let queued = tables.contains("Queue") ? "(SELECT min(id) FROM Queue WHERE feeditem = FeedItems.id)" : "NULL"
        for row in try file.database.rows(
            """
            SELECT FeedItems.feed, FeedItems.title, FeedMedia.download_url, \(item("item_identifier")),
                \(item("pubDate")), \(item("link")), \(item("description")), \(item("image_url")),
                \(media("duration")), \(media("filesize")), \(media("mime_type")), FeedItems.read,
                \(media("position")), \(media("last_played_time")), \(media("playback_completion_date")),
                \(favourite), \(queued)
            FROM FeedItems LEFT JOIN FeedMedia ON FeedMedia.feeditem = FeedItems.id
            ORDER BY FeedItems.id
            """)
        {
            guard let index = row.int(0).flatMap({ feedIndex[$0] }) else { continue }
            guard let audio = row.string(2), !audio.isEmpty else {
                library.skipped.episodesWithoutAudio += 1
                continue
            }
            var metadata = EpisodeMetadata(title: row.string(1) ?? audio, audioURL: audio)
            metadata.guid = row.string(3)
            metadata.publishedAt = row.int(4).flatMap { $0 > 0 ? Int($0 / 1000) : nil }
            (metadata.link, metadata.description, metadata.imageURL) = (row.string(5), row.string(6), row.string(7))
            metadata.durationMilliseconds = row.int(8).flatMap { $0 > 0 ? Int($0) : nil }
            metadata.enclosureLength = row.int(9).flatMap { $0 > 0 ? Int($0) : nil }
            metadata.enclosureType = row.string(10)
            var episode = ImportedEpisode(metadata: metadata)
            let position = Int(row.int(12) ?? 0)
            if row.int(11) == 1 {
                episode.state = PlaybackState(positionMilliseconds: 0, played: true)
            } else if position > 0 {
                episode.state = PlaybackState(positionMilliseconds: position, played: false)
            }
            let lastPlayed = [row.int(13), row.int(14)].compactMap { $0 }.first { $0 > 0 }
            episode.lastPlayed = lastPlayed.map { Int($0 / 1000) }
            episode.starred = row.int(15) == 1
            episode.queuePlace = row.int(16)
            library.feeds[index].episodes.append(episode)
        }
    }
}
