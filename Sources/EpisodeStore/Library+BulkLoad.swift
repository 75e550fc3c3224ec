extension Library {
    /// Indexes that a load of many feeds spreads its writes over, dropped while it runs.
    ///
    /// `list`'s date index orders the whole library, so each new feed's episodes land all over
    /// it: at a million episodes, a feed of 1,000 changed ~800 of its leaves, written out at every
    /// feed's commit (gigabytes of WAL for a cold import of 1,000 feeds, a fifth of its time). The
    /// index of audio URLs' ends (`fetch URL`'s) is ordered by file names, as scattered. Built
    /// once at the end, each takes a second at a million and comes out packed (a quarter of the
    /// URL index was free space).
    static let indexesDeferredInBulk = ["episodes_newest", "episodes_source_url"]

    /// A load that adds at least this many feeds, and at least as many as the library has, is one
    /// in bulk: rebuilding the indexes then costs less than keeping them up to date.
    static let feedsInBulk = 10

    /// Runs `body`, which subscribes to `feeds` new feeds (each in transactions of its own); when
    /// that is a load in bulk (`feedsInBulk`), with the indexes of `indexesDeferredInBulk`
    /// dropped, built again after, also when `body` throws.
    ///
    /// What they were is kept in `deferred_indexes` in the transaction that drops them, so a load
    /// that is killed leaves them to the next opening of the library (`buildDeferredIndexes`).
    /// Queries stay correct in between, only slower; a library opened meanwhile (a `list`
    /// during the import) builds them at once, and the load goes on with them.
    /// - Throws: what `body` throws, else `StoreError` when the indexes cannot be dropped or built.
    public func loadingInBulk<Result>(adding feeds: Int, _ body: () throws -> Result) throws -> Result {
        let subscribed = Int(try database.rows("SELECT count(*) FROM feeds")[0].int(0) ?? 0)
        guard feeds >= Self.feedsInBulk, feeds >= subscribed else { return try body() }
        try write { writer throws(StoreError) in
            for name in Self.indexesDeferredInBulk {
                guard
                    let sql = try database.rows(
                        "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(name)]
                    ).first?.string(0)
                else { continue }
                try writer.run(
                    "INSERT OR REPLACE INTO deferred_indexes (name, sql) VALUES (?, ?)", [.text(name), .text(sql)])
                // An index name is ours, never a user's text.
                try writer.execute("DROP INDEX \(name)")
            }
        }
        let result: Result
        do {
            result = try body()
        } catch {
            try? buildDeferredIndexes()
            throw error
        }
        try buildDeferredIndexes()
        return result
    }

    /// Builds again the indexes a bulk load dropped, if any (after one that was killed, at the
    /// opening of the library).
    func buildDeferredIndexes() throws(StoreError) {
        guard try database.rows("SELECT 1 FROM deferred_indexes LIMIT 1").first != nil else { return }
        try write { writer throws(StoreError) in
            for row in try database.rows("SELECT name, sql FROM deferred_indexes") {
                guard let name = row.string(0), let sql = row.string(1) else { continue }
                let exists =
                    try database.rows(
                        "SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(name)]
                    ).first != nil
                if !exists { try writer.execute(sql) }
                try writer.run("DELETE FROM deferred_indexes WHERE name = ?", [.text(name)])
            }
        }
    }
}
