extension Library {
    /// Records a bookmark of `episode` at `positionMilliseconds` (the position heard), in one
    /// transaction.
    /// - Returns: the bookmark as recorded, with its number.
    /// - Throws: `StoreError.episodeNotFound` when the episode is no longer in the library
    ///   (another podcli removed it).
    @discardableResult
    public func addBookmark(
        to episode: Episode, positionMilliseconds: Int, chapter: String?, note: String?
    ) throws(StoreError) -> Bookmark {
        let added = try write { writer throws(StoreError) in
            guard try !database.rows("SELECT 1 FROM episodes WHERE id = ?", [SQLValue(episode.id)]).isEmpty else {
                throw .episodeNotFound("\(episode.id)")
            }
            try writer.run(
                "INSERT INTO bookmarks (episode_id, position_ms, chapter, note, created_at) VALUES (?, ?, ?, ?, ?)",
                [
                    SQLValue(episode.id), SQLValue(max(0, positionMilliseconds)), SQLValue(chapter), SQLValue(note),
                    SQLValue(writer.now),
                ])
            return try bookmarks(where: "bookmarks.id = ?", [SQLValue(writer.lastInsertedRowID)]).first
        }
        guard let added else { throw .episodeNotFound("\(episode.id)") }
        return added
    }

    /// Every bookmark in the order they were made, or `episode`'s in the order of the episode.
    public func bookmarks(of episode: Episode? = nil) throws(StoreError) -> [Bookmark] {
        guard let episode else { return try bookmarks(where: "1", []) }
        return try bookmarks(
            where: "bookmarks.episode_id = ?", [SQLValue(episode.id)], order: "bookmarks.position_ms, bookmarks.id")
    }

    /// Removes the bookmark numbered `id`.
    /// - Returns: false when there is none.
    @discardableResult
    public func removeBookmark(_ id: Int) throws(StoreError) -> Bool {
        try write { writer throws(StoreError) in
            try writer.run("DELETE FROM bookmarks WHERE id = ?", [SQLValue(id)])
            return writer.changes == 1
        }
    }

    /// Before an unsubscribe forgets the feed (in its transaction): the bookmarks of its
    /// episodes are deleted, or, kept, given copies of the feed's title and of their episode's
    /// title and audio URL, and let go of the episodes in `forgotten` (whose rows go next).
    func unsubscribeBookmarks(
        of feed: Feed, keeping: Bool, forgotten: [Int], in writer: borrowing Writer
    ) throws(StoreError) {
        let ofTheFeed = "episode_id IN (SELECT id FROM episodes WHERE feed_id = ?)"
        guard keeping else {
            return try writer.run("DELETE FROM bookmarks WHERE \(ofTheFeed)", [SQLValue(feed.id)])
        }
        try writer.run(
            """
            UPDATE bookmarks SET (episode_title, source_url, feed_title) =
                (SELECT title, source_url, ? FROM episodes WHERE id = bookmarks.episode_id)
            WHERE \(ofTheFeed)
            """, [.text(feed.title), SQLValue(feed.id)])
        for id in forgotten {
            try writer.run("UPDATE bookmarks SET episode_id = NULL WHERE episode_id = ?", [SQLValue(id)])
        }
    }

    private func bookmarks(where condition: String, _ values: [SQLValue], order: String = "bookmarks.id")
        throws(StoreError) -> [Bookmark]
    {
        try database.rows(
            "SELECT \(Bookmark.columns) FROM bookmarks \(Bookmark.joins) WHERE \(condition) ORDER BY \(order)", values
        ).map(Bookmark.init)
    }
}
