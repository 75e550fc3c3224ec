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
        try write { writer throws(StoreError) in
            if let existing = try feed(url: url) {
                var summary = try recordRefresh(
                    of: existing.id, url: url, metadata: metadata, episodes: episodes, etag: etag,
                    lastModified: lastModified, protection: protection, in: writer)
                summary.wasSubscribed = true
                return (try writtenFeed(id: existing.id), summary)
            }
            let now = writer.now
            try writer.run(
                """
                INSERT INTO feeds (url, title, subscribed_at, checked_at, changed_at, etag, last_modified)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(url), .text(metadata.title), SQLValue(now), SQLValue(now), SQLValue(now), SQLValue(etag),
                    SQLValue(lastModified),
                ])
            let feedID = writer.lastInsertedRowID
            try recordSubscription(true, url: url, in: writer)
            try update(feedID: feedID, metadata: metadata, in: writer)
            var summary = try merge(episodes, into: feedID, protection: protection, markNew: false, in: writer)
            summary.newEpisodeIDs = try markNewestNew(of: feedID, in: writer)
            return (try writtenFeed(id: feedID), summary)
        }
    }

    /// A first read of a feed marks its newest episode new, not all: by the feed's dates (a
    /// dateless item is not "newest" while dated ones exist), else the first in the document.
    private func markNewestNew(of feedID: Int, in writer: borrowing Writer) throws(StoreError) -> [Int] {
        guard
            let newest = try database.rows(
                """
                SELECT id FROM episodes WHERE feed_id = ?
                ORDER BY published_at IS NULL, published_at DESC, id ASC LIMIT 1
                """, [SQLValue(feedID)]
            ).first?.int(0)
        else { return [] }
        try writer.run("UPDATE episodes SET is_new = 1 WHERE id = ?", [.integer(newest)])
        return [Int(newest)]
    }

    /// The feed `id`, which the open transaction has just written.
    private func writtenFeed(id: Int) throws(StoreError) -> Feed {
        guard let feed = try feed(id: id) else { throw .feedNotFound("\(id)") }
        return feed
    }

    /// Records a refresh that brought a new document: the podcast's metadata, the episodes merged
    /// (new ones count as new), the validators, and `url` if the feed moved.
    public func refresh(
        _ feed: Feed, url: String, metadata: FeedMetadata, episodes: [EpisodeMetadata], etag: String?,
        lastModified: String?, protection: Protection
    ) throws(StoreError) -> MergeSummary {
        try write { writer throws(StoreError) in
            try recordRefresh(
                of: feed.id, url: url, metadata: metadata, episodes: episodes, etag: etag,
                lastModified: lastModified, protection: protection, in: writer)
        }
    }

    /// What `refresh` does, inside the caller's transaction.
    private func recordRefresh(
        of feedID: Int, url: String, metadata: FeedMetadata, episodes: [EpisodeMetadata], etag: String?,
        lastModified: String?, protection: Protection, in writer: borrowing Writer
    ) throws(StoreError) -> MergeSummary {
        let now = writer.now
        // A feed subscribed on another device (`applyRemoteSubscriptions`) was never read: this
        // is its first read, as a subscription's.
        let neverRead = try database.rows("SELECT checked_at IS NULL FROM feeds WHERE id = ?", [SQLValue(feedID)])
        let firstRead = neverRead.first?.int(0) == 1
        try writer.run(
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
        guard writer.changes == 1 else { throw .feedNotFound("\(feedID)") }
        try update(feedID: feedID, metadata: metadata, in: writer)
        var summary = try merge(episodes, into: feedID, protection: protection, markNew: !firstRead, in: writer)
        if firstRead { summary.newEpisodeIDs = try markNewestNew(of: feedID, in: writer) }
        return summary
    }

    /// Records a refresh that brought no document: 304 (with the feed's new URL if it moved) or
    /// a failure (kept until the next success, and counted).
    public func record(_ check: FeedCheck, for feed: Feed, url: String? = nil) throws(StoreError) {
        switch check {
        case .unchanged(let etag, let lastModified):
            try write { writer throws(StoreError) in
                try writer.run(
                    """
                    UPDATE feeds SET url = ?, etag = coalesce(?, etag), last_modified = coalesce(?, last_modified),
                        checked_at = ?, last_error = NULL, failures = 0, retry_at = NULL
                    WHERE id = ?
                    """,
                    [
                        .text(url ?? feed.url), SQLValue(etag), SQLValue(lastModified), SQLValue(writer.now),
                        SQLValue(feed.id),
                    ])
            }
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

    /// Subscriptions with their counts: all of them, or the one numbered `id`. The episodes are
    /// counted as they come and go (schema 6's triggers); the new and the downloaded, which are
    /// few, through the partial indexes that hold only them.
    private func summaries(id: Int?) throws(StoreError) -> [FeedSummary] {
        try database.rows(
            """
            SELECT \(Feed.columns), episode_count,
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
    /// their own unless `deleteFiles`; the others are forgotten. The episodes' bookmarks go with
    /// the feed unless `keepBookmarks` (`unsubscribeBookmarks`). All of it happens or none of it.
    /// - Returns: how many episodes were kept.
    /// - Throws: `StoreError.busy` when `deleteFiles` asks to remove an episode that another
    ///   podcli is downloading or playing; then nothing is changed.
    @discardableResult
    public func unsubscribe(_ feed: Feed, deleteFiles: Bool, keepBookmarks: Bool = false) throws(StoreError) -> Int {
        try unsubscribe(feed, deleteFiles: deleteFiles, keepBookmarks: keepBookmarks, serverKnows: false)
    }

    /// `unsubscribe`; the outbox is told unless the server asked for it (`serverKnows`): no echo.
    func unsubscribe(
        _ feed: Feed, deleteFiles: Bool, keepBookmarks: Bool, serverKnows: Bool
    ) throws(StoreError) -> Int {
        let episodes = try database.rows(
            "SELECT \(Episode.columns) FROM episodes \(Episode.withTexts) WHERE feed_id = ?", [SQLValue(feed.id)]
        ).map(Episode.init)
        var withFiles: [Episode] = []
        for episode in episodes where try !files(of: episode).isEmpty || FileSystem.exists(directory(of: episode)) {
            withFiles.append(episode)
        }
        let forgotten = episodes.filter { episode in deleteFiles || !withFiles.contains { $0.id == episode.id } }
        let changeRows = { (writer: borrowing Writer) throws(StoreError) in
            try self.unsubscribeBookmarks(
                of: feed, keeping: keepBookmarks, forgotten: forgotten.map(\.id), in: writer)
            let transcribed = try self.transcribedEpisodes(ofFeed: feed.id, in: writer)
            for episode in episodes {
                if !deleteFiles && withFiles.contains(where: { $0.id == episode.id }) {
                    try writer.run(
                        "UPDATE episodes SET feed_id = NULL, is_new = 0 WHERE id = ?", [SQLValue(episode.id)])
                } else {
                    if transcribed.contains(episode.id) { try self.forgetTranscript(of: episode.id, in: writer) }
                    try writer.run("DELETE FROM episodes WHERE id = ?", [SQLValue(episode.id)])
                }
            }
            try writer.run("DELETE FROM feeds WHERE id = ?", [SQLValue(feed.id)])
            if !serverKnows { try self.recordSubscription(false, url: feed.url, in: writer) }
        }
        guard deleteFiles else {
            try write(changeRows)
            return withFiles.count
        }
        // Every download lock first: an episode another podcli is writing stops it all.
        let locks = try withFiles.map { episode throws(StoreError) in try lock(episode) }
        try withExtendedLifetime(locks) { () throws(StoreError) in
            try deleteDirectories(of: withFiles, changeRows: changeRows)
        }
        return 0
    }

    // MARK: Merging (Library+Merge)

    private func update(feedID: Int, metadata: FeedMetadata, in writer: borrowing Writer) throws(StoreError) {
        try writer.run(
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
}
