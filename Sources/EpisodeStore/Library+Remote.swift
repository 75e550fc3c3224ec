/// The library's side of a gpodder.net-API sync server (schema 15): where the exchange stands,
/// what waits to go up, and the server's subscription changes and URL rewrites applied here.
/// What comes down is never written to the outbox (no echo); a feed is the same feed with or
/// without the `user:pass@` the server strips (`FeedURLCredentials`).
extension Library {
    /// The exchange's state: all zero before the first.
    public func remoteState() throws(StoreError) -> RemoteState {
        guard
            let row = try database.rows(
                """
                SELECT account, subscriptions_since, actions_since, device_registered, devices_linked,
                       last_exchange, last_error, last_error_at
                FROM remote_state WHERE id = 1
                """
            ).first
        else { return RemoteState() }
        return RemoteState(
            account: row.string(0), subscriptionsSince: Int(row.int(1) ?? 0), actionsSince: Int(row.int(2) ?? 0),
            deviceRegistered: row.int(3) == 1, devicesLinked: row.int(4) == 1, lastExchange: row.int(5).map(Int.init),
            lastError: row.string(6), lastErrorAt: row.int(7).map(Int.init))
    }

    public func setRemoteState(_ state: RemoteState) throws(StoreError) {
        try write { writer throws(StoreError) in
            try writer.run(
                """
                INSERT OR REPLACE INTO remote_state (id, account, subscriptions_since, actions_since, device_registered,
                    devices_linked, last_exchange, last_error, last_error_at)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    SQLValue(state.account), SQLValue(state.subscriptionsSince), SQLValue(state.actionsSince),
                    SQLValue(state.deviceRegistered ? 1 : 0), SQLValue(state.devicesLinked ? 1 : 0),
                    SQLValue(state.lastExchange), SQLValue(state.lastError), SQLValue(state.lastErrorAt),
                ])
        }
    }

    /// How many changes of each action wait in the outbox (`remote status`); an action with none
    /// is left out.
    public func outboxCounts() throws(StoreError) -> [OutboxEntry.Action: Int] {
        var counts: [OutboxEntry.Action: Int] = [:]
        for row in try database.rows("SELECT action, count(*) FROM outbox GROUP BY action") {
            guard let action = row.string(0).flatMap(OutboxEntry.Action.init) else { continue }
            counts[action] = Int(row.int(1) ?? 0)
        }
        return counts
    }

    /// Subscribes to `added` (feeds with no content yet, refreshed by the next refresh) and unsubscribes
    /// `removed` (keeping downloaded files unless `deleteFiles`), writing no outbox entry (no echo), skipping
    /// a URL with a pending opposite local change in the outbox (the listener's newer intention wins).
    /// The additions are one transaction, each removal its own (as `unsubscribe`); a feed already
    /// subscribed, or not subscribed, is left as it is.
    public func applyRemoteSubscriptions(
        added: [String], removed: [String], deleteFiles: Bool
    ) throws(StoreError) -> RemoteSubscriptionSummary {
        var summary = RemoteSubscriptionSummary()
        var feeds: [String: Feed] = [:]
        for feed in try subscriptions() { feeds[FeedURLCredentials.stripped(feed.url)] = feed }
        var pending: [String: String] = [:]
        for row in try database.rows("SELECT podcast_url, action FROM outbox WHERE episode_url IS NULL") {
            pending[FeedURLCredentials.stripped(row.string(0) ?? "")] = row.string(1)
        }
        let addedIDs = try write { writer throws(StoreError) in
            var ids: [Int] = []
            for url in added {
                let key = FeedURLCredentials.stripped(url)
                if pending[key] == OutboxEntry.Action.unsubscribe.rawValue {
                    summary.skipped.append(url)
                    continue
                }
                guard feeds[key] == nil, try feed(url: url) == nil else { continue }
                // Titled by its URL until the refresh reads it; never checked, so that refresh is
                // its first read (`recordRefresh`).
                try writer.run(
                    "INSERT INTO feeds (url, title, subscribed_at) VALUES (?1, ?1, ?2)",
                    [.text(url), SQLValue(writer.now)])
                ids.append(writer.lastInsertedRowID)
            }
            return ids
        }
        for id in addedIDs { if let feed = try feed(id: id) { summary.added.append(feed) } }
        for url in removed {
            let key = FeedURLCredentials.stripped(url)
            guard let feed = feeds[key] else { continue }
            if pending[key] == OutboxEntry.Action.subscribe.rawValue {
                summary.skipped.append(url)
                continue
            }
            do {
                _ = try unsubscribe(feed, deleteFiles: deleteFiles, keepBookmarks: false, serverKnows: true)
                summary.removed.append(url)
            } catch .busy {
                summary.skipped.append(url)
            }
        }
        return summary
    }

    /// Rewrites URLs as the server sanitized them (mygpo's `update_urls`): a feed's, an episode's
    /// enclosure and the outbox's pending entries, in one transaction. A feed keeps its local
    /// credentials (the server never saw them), so a rewrite that only drops them changes
    /// nothing; a rewrite onto a URL another feed has already is left out.
    public func rewriteURLs(_ rewrites: [(from: String, to: String)]) throws(StoreError) {
        try write { writer throws(StoreError) in
            for (from, to) in rewrites {
                let key = FeedURLCredentials.stripped(from)
                guard FeedURLCredentials.stripped(to) != key else { continue }
                try rewriteFeedURL(key, to: to, in: writer)
                try writer.run("UPDATE outbox SET podcast_url = ? WHERE podcast_url = ?", [.text(to), .text(from)])
                try rewriteEpisodeURL(from, to: to, in: writer)
            }
        }
    }

    /// The feed whose URL is `key` with or without credentials moves to `to` with them.
    private func rewriteFeedURL(_ key: String, to: String, in writer: borrowing Writer) throws(StoreError) {
        guard let feed = try subscriptions().first(where: { FeedURLCredentials.stripped($0.url) == key }) else {
            return
        }
        let url = FeedURLCredentials.keepingCredentials(of: feed.url, in: to)
        guard try self.feed(url: url) == nil else { return }
        try writer.run("UPDATE feeds SET url = ? WHERE id = ?", [.text(url), SQLValue(feed.id)])
        try writer.run("UPDATE outbox SET podcast_url = ? WHERE podcast_url = ?", [.text(url), .text(feed.url)])
    }

    /// Episodes downloaded from `from` now come from `to`; their identity (the media key) stays.
    private func rewriteEpisodeURL(_ from: String, to: String, in writer: borrowing Writer) throws(StoreError) {
        let episodes = try database.rows(
            """
            SELECT id, \(Self.mediaKey) FROM episodes
            WHERE substr(source_url, -32) = substr(?1, -32) AND source_url = ?1
            """, [.text(from)])
        for row in episodes {
            // media_key may be stored as an offset into source_url: written again for the new one.
            let key = row.string(1).map { Self.storedMediaKey($0, of: to) } ?? .null
            try writer.run(
                "UPDATE episodes SET source_url = ?, media_key = ? WHERE id = ?",
                [.text(to), key, .integer(row.int(0) ?? 0)])
        }
        try writer.run("UPDATE outbox SET episode_url = ? WHERE episode_url = ?", [.text(to), .text(from)])
    }
}
