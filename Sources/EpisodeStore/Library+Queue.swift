extension Library {
    /// The queued episodes ("Up Next"), in play order.
    public func queue() throws(StoreError) -> [Episode] {
        try database.rows(
            """
            SELECT \(Episode.columns) FROM queue JOIN episodes ON episodes.id = queue.episode_id \(Episode.withTexts)
            ORDER BY queue.ordinal, queue.episode_id
            """
        ).map(Episode.init)
    }

    /// The queued episodes in play order, with what a listing shows beside each.
    public func queueListing() throws(StoreError) -> [EpisodeListing] {
        try database.rows(
            """
            SELECT \(EpisodeListing.columns) FROM queue JOIN episodes ON episodes.id = queue.episode_id
            \(EpisodeListing.feedJoin) \(EpisodeListing.playbackJoin)
            ORDER BY queue.ordinal, queue.episode_id
            """
        ).map(EpisodeListing.init)
    }

    /// Appends `episodes` to the end of the queue, in the order given, in one transaction. An
    /// episode already queued keeps its place. (Schema 10 keeps the ordinals 1 to the count: the
    /// largest plus one is the end.)
    /// - Returns: how many episodes were added.
    /// - Throws: `StoreError.episodeNotFound` when one of them is no longer in the library (another
    ///   podcli removed it); then nothing is added.
    @discardableResult
    public func enqueue(_ episodes: [Episode]) throws(StoreError) -> Int {
        try write { writer throws(StoreError) in
            var added = 0
            for episode in episodes {
                guard try !database.rows("SELECT 1 FROM episodes WHERE id = ?", [SQLValue(episode.id)]).isEmpty else {
                    throw .episodeNotFound("\(episode.id)")
                }
                try writer.run(
                    """
                    INSERT INTO queue (episode_id, ordinal, added_at)
                    VALUES (?, (SELECT coalesce(max(ordinal), 0) + 1 FROM queue), ?)
                    ON CONFLICT (episode_id) DO NOTHING
                    """, [SQLValue(episode.id), SQLValue(writer.now)])
                added += writer.changes
            }
            return added
        }
    }

    /// Puts `episodes` at the front of the queue, in the order given, ahead of the rest, in one
    /// transaction; one already queued is moved there. The episodes after them move down.
    /// - Returns: the numbers of those added (the others were queued, and moved).
    /// - Throws: `StoreError.episodeNotFound` when one of them is no longer in the library; then
    ///   nothing changes.
    @discardableResult
    public func enqueueNext(_ episodes: [Episode]) throws(StoreError) -> Set<Int> {
        try write { writer throws(StoreError) in
            var added = Set<Int>()
            for (offset, episode) in episodes.enumerated() {
                let position = offset + 1
                if let current = try queuePosition(of: episode) {
                    try shiftQueue(from: current, to: position, episode: episode, in: writer)
                    continue
                }
                guard try !database.rows("SELECT 1 FROM episodes WHERE id = ?", [SQLValue(episode.id)]).isEmpty else {
                    throw .episodeNotFound("\(episode.id)")
                }
                try writer.run("UPDATE queue SET ordinal = ordinal + 1 WHERE ordinal >= ?", [SQLValue(position)])
                try writer.run(
                    "INSERT INTO queue (episode_id, ordinal, added_at) VALUES (?, ?, ?)",
                    [SQLValue(episode.id), SQLValue(position), SQLValue(writer.now)])
                added.insert(episode.id)
            }
            return added
        }
    }

    /// What moving an episode in the queue came to.
    public enum QueueMove: Equatable, Sendable {
        /// From one position to another (1-based; the same when it was there already).
        case moved(from: Int, to: Int)
        case notQueued
        /// The position is not one of the queue's, 1 to `count`.
        case outOfRange(count: Int)
    }

    /// Moves `episode` to `position` (1-based) in the queue, in one transaction: the episodes
    /// between its old place and its new one move by one to make room.
    public func moveInQueue(_ episode: Episode, to position: Int) throws(StoreError) -> QueueMove {
        try write { writer throws(StoreError) -> QueueMove in
            guard let current = try queuePosition(of: episode) else { return .notQueued }
            let count = Int(try database.rows("SELECT count(*) FROM queue")[0].int(0) ?? 0)
            guard (1...count).contains(position) else { return .outOfRange(count: count) }
            try shiftQueue(from: current, to: position, episode: episode, in: writer)
            return .moved(from: current, to: position)
        }
    }

    /// Where `episode` is in the queue (1-based: schema 10 keeps the ordinals so), if queued.
    private func queuePosition(of episode: Episode) throws(StoreError) -> Int? {
        try database.rows("SELECT ordinal FROM queue WHERE episode_id = ?", [SQLValue(episode.id)]).first
            .flatMap { $0.int(0) }.map(Int.init)
    }

    /// Moves the queued `episode` from position `from` to `to`, the ones between by one the
    /// other way: the positions stay 1 to the count.
    private func shiftQueue(from: Int, to: Int, episode: Episode, in writer: borrowing Writer) throws(StoreError) {
        guard from != to else { return }
        if from < to {
            try writer.run(
                "UPDATE queue SET ordinal = ordinal - 1 WHERE ordinal > ? AND ordinal <= ?",
                [SQLValue(from), SQLValue(to)])
        } else {
            try writer.run(
                "UPDATE queue SET ordinal = ordinal + 1 WHERE ordinal >= ? AND ordinal < ?",
                [SQLValue(to), SQLValue(from)])
        }
        try writer.run("UPDATE queue SET ordinal = ? WHERE episode_id = ?", [SQLValue(to), SQLValue(episode.id)])
    }

    /// Takes `episode` out of the queue; the ones after it move up (schema 10's trigger).
    /// - Returns: false if it was not queued.
    @discardableResult
    public func dequeue(_ episode: Episode) throws(StoreError) -> Bool {
        try write { writer throws(StoreError) in
            try writer.run("DELETE FROM queue WHERE episode_id = ?", [SQLValue(episode.id)])
            return writer.changes == 1
        }
    }

    /// Empties the queue (the episodes stay in the library).
    /// - Returns: how many episodes were in it.
    @discardableResult
    public func clearQueue() throws(StoreError) -> Int {
        try write { writer throws(StoreError) in
            try writer.run("DELETE FROM queue")
            return writer.changes
        }
    }
}
