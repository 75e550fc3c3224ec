import Strings

extension Library {
    /// Subscribes to the feed at `url`: records the podcast and all its episodes. Only the newest
    /// episode counts as new, as in gPodder: a subscription does not flood the new list.
    ///
    /// When another podcli subscribed to the same URL meanwhile, the document is recorded as a
    /// refresh of that subscription instead (`MergeSummary.wasSubscribed`): one feed, not an error.
    public func subscribe(
        url: String, metadata: FeedMetadata, episodes: [EpisodeMetadata], etag: String?, lastModified: String?,
        protection: Protection
    ) throws(StoreError) -> (Feed, MergeSummary) {
        var result: (Feed, MergeSummary)?
        try transaction { () throws(StoreError) in
            if let existing = try feed(url: url) {
                var summary = try recordRefresh(
                    of: existing.id, url: url, metadata: metadata, episodes: episodes, etag: etag,
                    lastModified: lastModified, protection: protection)
                summary.wasSubscribed = true
                result = (try feed(id: existing.id)!, summary)
                return
            }
            let now = Library.now
            try database.run(
                """
                INSERT INTO feeds (url, title, subscribed_at, checked_at, changed_at, etag, last_modified)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(url), .text(metadata.title), SQLValue(now), SQLValue(now), SQLValue(now), SQLValue(etag),
                    SQLValue(lastModified),
                ])
            let feedID = database.lastInsertedRowID
            try update(feedID: feedID, metadata: metadata)
            var summary = try merge(episodes, into: feedID, protection: protection, markNew: false)
            // The newest is new: by the feed's dates (a dateless item is not "newest" while dated ones
            // exist), else the first in the document.
            if let newest = try database.rows(
                """
                SELECT id FROM episodes WHERE feed_id = ?
                ORDER BY published_at IS NULL, published_at DESC, id ASC LIMIT 1
                """, [SQLValue(feedID)]
            ).first?.int(0) {
                try database.run("UPDATE episodes SET is_new = 1 WHERE id = ?", [.integer(newest)])
                summary.newEpisodeIDs = [Int(newest)]
            }
            result = (try feed(id: feedID)!, summary)
        }
        return result!
    }

    /// Records a refresh that brought a new document: the podcast's metadata, the episodes merged
    /// (new ones count as new), the validators, and `url` if the feed moved.
    public func refresh(
        _ feed: Feed, url: String, metadata: FeedMetadata, episodes: [EpisodeMetadata], etag: String?,
        lastModified: String?, protection: Protection
    ) throws(StoreError) -> MergeSummary {
        var summary = MergeSummary()
        try transaction { () throws(StoreError) in
            summary = try recordRefresh(
                of: feed.id, url: url, metadata: metadata, episodes: episodes, etag: etag,
                lastModified: lastModified, protection: protection)
        }
        return summary
    }

    /// What `refresh` does, inside the caller's transaction.
    private func recordRefresh(
        of feedID: Int, url: String, metadata: FeedMetadata, episodes: [EpisodeMetadata], etag: String?,
        lastModified: String?, protection: Protection
    ) throws(StoreError) -> MergeSummary {
        let now = Library.now
        try database.run(
            """
            UPDATE feeds SET url = ?, title = ?, etag = ?, last_modified = ?, checked_at = ?, changed_at = ?,
                last_error = NULL, failures = 0, retry_at = NULL
            WHERE id = ?
            """,
            [
                .text(url), .text(metadata.title), SQLValue(etag), SQLValue(lastModified), SQLValue(now),
                SQLValue(now), SQLValue(feedID),
            ])
        // Another podcli may have unsubscribed while this one was fetching.
        guard database.changes == 1 else { throw .feedNotFound("\(feedID)") }
        try update(feedID: feedID, metadata: metadata)
        return try merge(episodes, into: feedID, protection: protection, markNew: true)
    }

    /// Records a refresh that brought no document: 304 (with the feed's new URL if it moved) or
    /// a failure (kept until the next success, and counted).
    public func record(_ check: FeedCheck, for feed: Feed, url: String? = nil) throws(StoreError) {
        switch check {
        case .unchanged(let etag, let lastModified):
            try database.run(
                """
                UPDATE feeds SET url = ?, etag = coalesce(?, etag), last_modified = coalesce(?, last_modified),
                    checked_at = ?, last_error = NULL, failures = 0, retry_at = NULL
                WHERE id = ?
                """,
                [
                    .text(url ?? feed.url), SQLValue(etag), SQLValue(lastModified), SQLValue(Library.now),
                    SQLValue(feed.id),
                ])
        case .failed(let message):
            try countFailure(message, in: "feeds", id: feed.id)
        }
    }

    public func feed(id: Int) throws(StoreError) -> Feed? {
        try database.rows("SELECT \(Feed.columns) FROM feeds WHERE id = ?", [SQLValue(id)]).first.map(Feed.init)
    }

    /// The subscription fetched from `url`, if any.
    public func feed(url: String) throws(StoreError) -> Feed? {
        try database.rows("SELECT \(Feed.columns) FROM feeds WHERE url = ?", [.text(url)]).first.map(Feed.init)
    }

    /// The feed a user means by `reference`, by `FeedReference`'s rule (its number and URL looked
    /// up directly, the rest among every subscription).
    /// - Throws: `StoreError.feedNotFound` or `.ambiguousFeed`.
    public func feed(matching reference: String) throws(StoreError) -> Feed {
        if let id = Int(reference), let feed = try feed(id: id) { return feed }
        if let feed = try feed(url: reference) { return feed }
        return try FeedReference.match(reference, in: subscriptions())
    }

    /// Every subscription, by title.
    public func subscriptions() throws(StoreError) -> [Feed] {
        try database.rows("SELECT \(Feed.columns) FROM feeds ORDER BY title COLLATE NOCASE, id").map(Feed.init)
    }

    /// The counts `podcli feeds` shows for one subscription.
    public func summary(of feed: Feed) throws(StoreError) -> FeedSummary? {
        try summaries(id: feed.id).first
    }

    /// Every subscription with its counts, by title.
    public func feeds() throws(StoreError) -> [FeedSummary] { try summaries(id: nil) }

    /// Subscriptions with their counts: all of them, or the one numbered `id`.
    private func summaries(id: Int?) throws(StoreError) -> [FeedSummary] {
        try database.rows(
            """
            SELECT \(Feed.columns),
                (SELECT count(*) FROM episodes WHERE feed_id = feeds.id),
                (SELECT count(*) FROM episodes LEFT JOIN playback_state ON episode_id = episodes.id
                    WHERE feed_id = feeds.id AND is_new = 1 AND coalesce(played, 0) = 0),
                (SELECT count(*) FROM episodes WHERE feed_id = feeds.id AND state = 'downloaded')
            FROM feeds WHERE ?1 IS NULL OR feeds.id = ?1 ORDER BY feeds.title COLLATE NOCASE, feeds.id
            """, [SQLValue(id)]
        ).map { row in
            FeedSummary(
                feed: Feed(row: row), episodes: Int(row.int(Feed.columnCount) ?? 0),
                new: Int(row.int(Feed.columnCount + 1) ?? 0), downloaded: Int(row.int(Feed.columnCount + 2) ?? 0))
        }
    }

    /// Ends a subscription. Episodes with files (downloaded or partial) are kept as episodes of
    /// their own unless `deleteFiles`; the others are forgotten. All of it happens or none of it.
    /// - Returns: how many episodes were kept.
    /// - Throws: `StoreError.busy` when `deleteFiles` asks to remove an episode that another
    ///   podcli is downloading or playing; then nothing is changed.
    @discardableResult
    public func unsubscribe(_ feed: Feed, deleteFiles: Bool) throws(StoreError) -> Int {
        let episodes = try database.rows(
            "SELECT \(Episode.columns) FROM episodes WHERE feed_id = ?", [SQLValue(feed.id)]
        ).map(Episode.init)
        var withFiles: [Episode] = []
        for episode in episodes where try !files(of: episode).isEmpty || FileSystem.exists(directory(of: episode)) {
            withFiles.append(episode)
        }
        let changeRows = { () throws(StoreError) in
            for episode in episodes {
                if !deleteFiles && withFiles.contains(where: { $0.id == episode.id }) {
                    try self.database.run(
                        "UPDATE episodes SET feed_id = NULL, is_new = 0 WHERE id = ?", [SQLValue(episode.id)])
                } else {
                    try self.database.run("DELETE FROM episodes WHERE id = ?", [SQLValue(episode.id)])
                }
            }
            try self.database.run("DELETE FROM feeds WHERE id = ?", [SQLValue(feed.id)])
        }
        guard deleteFiles else {
            try transaction(changeRows)
            return withFiles.count
        }
        // Every download lock first: an episode another podcli is writing stops it all.
        let locks = try withFiles.map { episode throws(StoreError) in try lock(episode) }
        try withExtendedLifetime(locks) { () throws(StoreError) in
            try deleteDirectories(of: withFiles, changeRows: changeRows)
        }
        return 0
    }

    // MARK: Merging

    private func update(feedID: Int, metadata: FeedMetadata) throws(StoreError) {
        try database.run(
            """
            UPDATE feeds SET title = ?, link = ?, description = ?, author = ?, image_url = ?, language = ?,
                serial = ?, explicit = ?, podcast_guid = ?
            WHERE id = ?
            """,
            [
                .text(metadata.title), SQLValue(metadata.link), SQLValue(metadata.description),
                SQLValue(metadata.author),
                SQLValue(metadata.imageURL), SQLValue(metadata.language), SQLValue(metadata.isSerial ? 1 : 0),
                SQLValue(metadata.explicit.map { $0 ? 1 : 0 }), SQLValue(metadata.podcastGUID), SQLValue(feedID),
            ])
    }

    /// Matches each item of a document to a known episode of the feed, updates the matches,
    /// inserts the rest, and marks known episodes the document no longer lists.
    ///
    /// Matching goes in passes over the whole document, strongest key first (guid and
    /// enclosure together, guid, enclosure without trackers, title and date), so an item listed
    /// earlier cannot take an episode by a weak key that a later item holds by a strong one.
    /// Episodes kept with their files after an unsubscribe (no feed, but a media key) are known
    /// too, so subscribing again finds them instead of downloading them again.
    private func merge(
        _ items: [EpisodeMetadata], into feedID: Int, protection: Protection, markNew: Bool
    ) throws(StoreError) -> MergeSummary {
        var summary = MergeSummary()
        var known = try KnownEpisodes(
            database.rows(
                """
                SELECT id, guid, media_key, title, published_at FROM episodes
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

        let now = Library.now
        // A dateless item sorts just below the dated item before it in the document (feeds list
        // newest first), or below "now" at the top: its order in the feed is kept.
        var dateAbove = now
        for (item, match) in zip(distinct, matches) {
            if let published = item.publishedAt { dateAbove = min(published, now) } else { dateAbove -= 1 }
            if let id = match {
                try database.run(Self.updateEpisodeSQL, Self.values(of: item) + [SQLValue(feedID), .integer(id)])
                summary.matched += 1
            } else {
                try database.run(
                    Self.insertEpisodeSQL,
                    Self.values(of: item) + [
                        .text(EpisodeUUID.make()), SQLValue(feedID), .text(protection.rawValue),
                        SQLValue(now), SQLValue(item.publishedAt ?? dateAbove), SQLValue(markNew ? 1 : 0),
                    ])
                summary.added += 1
                if markNew { summary.newEpisodeIDs.append(database.lastInsertedRowID) }
            }
        }
        for id in known.unclaimed {
            try database.run(
                "UPDATE episodes SET in_feed = 0 WHERE id = ? AND feed_id = ? AND in_feed = 1",
                [.integer(id), SQLValue(feedID)])
            summary.dropped += database.changes
        }
        return summary
    }

    private static let metadataColumns = """
        title, source_url, media_key, guid, published_at, duration_ms, enclosure_length, enclosure_type, link,
        description, image_url, episode_number, season_number, episode_type, explicit, chapters, chapters_url,
        transcripts, persons, author
        """

    private static let updateEpisodeSQL = """
        UPDATE episodes SET (\(metadataColumns)) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?),
            in_feed = 1, sort_date = coalesce(?5, sort_date), feed_id = ?
        WHERE id = ?
        """

    private static let insertEpisodeSQL = """
        INSERT INTO episodes (\(metadataColumns), uuid, feed_id, protection, created_at, sort_date, is_new, state)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'new')
        """

    private static func values(of item: EpisodeMetadata) -> [SQLValue] {
        [
            .text(item.title), .text(item.sourceURL), .text(item.mediaKey), SQLValue(item.guid),
            SQLValue(item.publishedAt), SQLValue(item.durationMilliseconds), SQLValue(item.enclosureLength),
            SQLValue(item.enclosureType), SQLValue(item.link), SQLValue(item.description), SQLValue(item.imageURL),
            SQLValue(item.episodeNumber), SQLValue(item.seasonNumber), SQLValue(item.episodeType),
            SQLValue(item.explicit.map { $0 ? 1 : 0 }), SQLValue(item.chaptersJSON), SQLValue(item.chaptersURL),
            SQLValue(item.transcriptsJSON), SQLValue(item.personsJSON), SQLValue(item.author),
        ]
    }
}

/// The episodes a feed had before a refresh, indexed by each identity key; each can be claimed
/// by one item of the new document.
private struct KnownEpisodes {
    /// The keys an item can claim an episode by, strongest first.
    enum Key: CaseIterable {
        case guidAndMedia, guid, media, titleAndDate
    }

    private var byGUID: [String: [Int64]] = [:]
    private var byMediaKey: [String: [Int64]] = [:]
    private var byTitleAndDate: [String: [Int64]] = [:]
    private var mediaKeys: [Int64: String] = [:]
    private var remaining = Set<Int64>()

    init(_ rows: [Row]) {
        for row in rows {
            let id = row.int(0)!
            remaining.insert(id)
            if let guid = row.string(1) { byGUID[guid, default: []].append(id) }
            if let key = row.string(2) {
                byMediaKey[key, default: []].append(id)
                mediaKeys[id] = key
            }
            if let title = row.string(3), let date = row.int(4) {
                byTitleAndDate[Self.titleKey(title, Int(date)), default: []].append(id)
            }
        }
    }

    var unclaimed: [Int64] { remaining.sorted() }

    /// The first unclaimed episode that matches by `key`, claimed.
    mutating func claim(_ key: Key, guid: String?, mediaKey: String, title: String, date: Int?) -> Int64? {
        let candidates: [Int64]?
        switch key {
        case .guidAndMedia: candidates = guid.flatMap { byGUID[$0] }?.filter { mediaKeys[$0] == mediaKey }
        case .guid: candidates = guid.flatMap { byGUID[$0] }
        case .media: candidates = byMediaKey[mediaKey]
        case .titleAndDate: candidates = date.flatMap { byTitleAndDate[Self.titleKey(title, $0)] }
        }
        guard let id = candidates?.first(where: { remaining.contains($0) }) else { return nil }
        remaining.remove(id)
        return id
    }

    private static func titleKey(_ title: String, _ date: Int) -> String { "\(date)\u{1}\(title)" }
}

/// Which episodes `podcli list` shows.
public struct EpisodeFilter: Sendable {
    public var feedID: Int?
    /// New and not yet played.
    public var onlyNew = false
    public var onlyDownloaded = false
    public var onlyPlayed = false
    /// Text the title or description contains (ignoring case).
    public var search: String?

    public init() {}
}

/// An episode with what a listing shows beside it, read in one query.
public struct EpisodeListing: Sendable {
    public let episode: Episode
    public let feedTitle: String?
    public let fileSize: Int?
    public let played: Bool
    public let positionMilliseconds: Int

    /// What a listing selects, from `episodes` joined to what `init(row:)` reads beside each.
    static let select = """
        SELECT \(Episode.columns), feeds.title, (SELECT sum(size) FROM files WHERE episode_id = episodes.id),
            coalesce(playback.played, 0), coalesce(playback.position_ms, 0)
        FROM episodes
        LEFT JOIN feeds ON feeds.id = episodes.feed_id
        LEFT JOIN playback_state AS playback ON playback.episode_id = episodes.id
        """

    /// A row of `select`.
    init(row: Row) {
        episode = Episode(row: row)
        let first = Episode.columnCount
        feedTitle = row.string(first)
        fileSize = row.int(first + 1).map(Int.init)
        played = row.int(first + 2) == 1
        positionMilliseconds = Int(row.int(first + 3) ?? 0)
    }
}

extension Library {
    /// The episodes `filter` selects, newest first.
    public func listing(_ filter: EpisodeFilter) throws(StoreError) -> [EpisodeListing] {
        let pattern = filter.search.map { "%" + Self.escapeLike($0.lowercased()) + "%" }
        return try database.rows(
            """
            \(EpisodeListing.select)
            WHERE (?1 IS NULL OR episodes.feed_id = ?1)
                AND (?2 = 0 OR (is_new = 1 AND coalesce(playback.played, 0) = 0))
                AND (?3 = 0 OR state = 'downloaded')
                AND (?4 = 0 OR playback.played = 1)
                AND (?5 IS NULL OR lower(episodes.title) LIKE ?5 ESCAPE '\\'
                    OR lower(coalesce(episodes.description, '')) LIKE ?5 ESCAPE '\\')
            ORDER BY sort_date DESC, episodes.id ASC
            """,
            [
                SQLValue(filter.feedID), SQLValue(filter.onlyNew ? 1 : 0), SQLValue(filter.onlyDownloaded ? 1 : 0),
                SQLValue(filter.onlyPlayed ? 1 : 0), SQLValue(pattern),
            ]
        ).map(EpisodeListing.init)
    }

    private static func escapeLike(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_")
    }
}
