/// The outbox (schemas 14 and 15): each change a gpodder.net-API sync server must learn, written in the
/// transaction of the local change, read in order and deleted once the server took it.
///
/// It is written whether or not a server is configured (one small row; the configuration is
/// PodcliKit's), and kept small as it is written: a subscription change cancels a pending one of
/// the same URL (subscribe then unsubscribe leaves the server as it was), and per episode the
/// newest play or `new` (a mark unplayed) replaces a pending one of either, the newest download
/// or delete a pending one of either. So it holds at most one entry per feed URL and two per
/// episode URL however long no exchange runs. An episode of no feed (fetched by its URL) has no
/// name on the server: none of its changes is written.
extension Library {
    /// The changes still to send, oldest first; at most `limit` of them.
    public func outbox(limit: Int = 1_000) throws(StoreError) -> [OutboxEntry] {
        try database.rows("SELECT \(OutboxEntry.columns) FROM outbox ORDER BY id LIMIT ?", [SQLValue(limit)])
            .map(OutboxEntry.init)
    }

    /// Forgets `entries`, which the server took, in one transaction. An entry replaced meanwhile
    /// by a newer one is already gone; the newer one stays to be sent.
    public func markSent(_ entries: [OutboxEntry]) throws(StoreError) {
        try write { writer throws(StoreError) in
            for entry in entries { try writer.run("DELETE FROM outbox WHERE id = ?", [SQLValue(entry.id)]) }
        }
    }

    /// Records a subscription (or its end) of the feed at `url` for the server, cancelling a
    /// pending change of the other kind.
    func recordSubscription(_ subscribed: Bool, url: String, in writer: borrowing Writer) throws(StoreError) {
        let pending = try writer.rows(
            "DELETE FROM outbox WHERE podcast_url = ? AND episode_url IS NULL RETURNING action", [.text(url)])
        let (action, other) = subscribed ? ("subscribe", "unsubscribe") : ("unsubscribe", "subscribe")
        guard !pending.contains(where: { $0.string(0) == other }) else { return }
        try writer.run(
            "INSERT INTO outbox (action, podcast_url, at) VALUES (?, ?, ?)",
            [.text(action), .text(url), SQLValue(writer.now)])
    }

    /// Records `action` (play, new, download or delete) of the episode `episodeID` for the server,
    /// replacing a pending one it makes out of date: a play or new an older play or new, a
    /// download or delete an older download or delete. `time` is when it happened (now when nil).
    func recordEpisodeAction(
        _ action: OutboxEntry.Action, of episodeID: Int, play: PlaySpan? = nil, at time: Int? = nil,
        in writer: borrowing Writer
    ) throws(StoreError) {
        guard
            let names = try writer.rows(
                """
                SELECT feeds.url, episodes.source_url, episodes.guid
                FROM episodes JOIN feeds ON feeds.id = episodes.feed_id WHERE episodes.id = ?
                """, [SQLValue(episodeID)]
            ).first, let podcastURL = names.string(0), let episodeURL = names.string(1)
        else { return }
        let replaced = action == .play || action == .new ? "'play', 'new'" : "'download', 'delete'"
        try writer.run(
            "DELETE FROM outbox WHERE episode_url = ? AND podcast_url = ? AND action IN (\(replaced))",
            [.text(episodeURL), .text(podcastURL)])
        try writer.run(
            """
            INSERT INTO outbox (action, podcast_url, episode_url, guid, at, started, position, total)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(action.rawValue), .text(podcastURL), .text(episodeURL), SQLValue(names.string(2)),
                SQLValue(time ?? writer.now), SQLValue(play?.started), SQLValue(play?.position), SQLValue(play?.total),
            ])
    }
}
