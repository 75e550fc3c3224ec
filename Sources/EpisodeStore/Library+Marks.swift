/// What `podcli mark` sets on episodes.
public enum EpisodeMark: String, Sendable, CaseIterable {
    /// Heard to the end, as the player's `m` marks it (`Library.markPlayed`).
    case played
    /// Not heard: neither played nor started.
    case unplayed
    /// The new flag set, or cleared (`old`).
    case new, old
}

/// Which episodes a bulk change reaches: those numbered `ids` (every one when nil), narrowed to
/// one feed's and to those published before a time.
public struct EpisodeSelection: Sendable {
    public var ids: [Int]?
    public var feedID: Int?
    /// Unix seconds: only episodes whose date (`Episode.sortDate`: published, else first seen)
    /// is earlier.
    public var publishedBefore: Int?

    public init() {}
}

/// What a bulk mark came to: how many episodes it reached, and how many of those it changed.
public struct MarkOutcome: Equatable, Sendable {
    public var selected = 0
    public var changed = 0
}

extension Library {
    /// Marks the episodes `selection` reaches, in one transaction.
    /// - Returns: how many it reached and how many changed (one already so is not changed).
    public func mark(_ mark: EpisodeMark, _ selection: EpisodeSelection) throws(StoreError) -> MarkOutcome {
        try write { writer throws(StoreError) in
            var outcome = MarkOutcome()
            let rows = try database.rows(
                """
                SELECT episodes.id, coalesce(playback.played, 0), coalesce(playback.position_ms, 0), episodes.is_new
                FROM episodes LEFT JOIN playback_state AS playback ON playback.episode_id = episodes.id
                \(Self.whereClause(of: selection))
                """, Self.values(of: selection))
            outcome.selected = rows.count
            for row in rows {
                let id = Int(row.int(0)!)
                let (played, position, isNew) = (row.int(1) == 1, row.int(2) ?? 0, row.int(3) == 1)
                switch mark {
                case .played where !played || position != 0 || isNew:
                    // The player's own call, so a mark here is what `m` leaves.
                    guard let episode = try episode(id: id) else { continue }
                    try markPlayed(episode, in: writer)
                case .unplayed where played || position != 0:
                    guard let episode = try episode(id: id) else { continue }
                    try setPlaybackState(.start, of: episode, in: writer)
                    try recordEpisodeAction(.new, of: id, in: writer)
                case .new where !isNew, .old where isNew:
                    try writer.run(
                        "UPDATE episodes SET is_new = ? WHERE id = ?", [SQLValue(mark == .new ? 1 : 0), SQLValue(id)])
                default:
                    continue
                }
                outcome.changed += 1
            }
            return outcome
        }
    }

    /// Stars (or unstars) `episodes`, in one transaction.
    /// - Returns: the numbers of those that changed (one already so is left out).
    /// - Throws: `StoreError.episodeNotFound` when one is no longer in the library (another
    ///   podcli removed it); then nothing changes.
    public func setStarred(_ starred: Bool, of episodes: [Episode]) throws(StoreError) -> Set<Int> {
        try write { writer throws(StoreError) in
            var changed = Set<Int>()
            for episode in episodes {
                guard
                    let row = try database.rows("SELECT starred FROM episodes WHERE id = ?", [SQLValue(episode.id)])
                        .first
                else { throw .episodeNotFound("\(episode.id)") }
                guard (row.int(0) == 1) != starred else { continue }
                try writer.run(
                    "UPDATE episodes SET starred = ? WHERE id = ?", [SQLValue(starred ? 1 : 0), SQLValue(episode.id)])
                changed.insert(episode.id)
            }
            return changed
        }
    }

    /// The WHERE clause of `selection`: through the feed's index (its episodes by date) when a
    /// feed is given, the numbers as one JSON array however many.
    private static func whereClause(of selection: EpisodeSelection) -> String {
        var conditions: [String] = []
        if selection.ids != nil { conditions.append("episodes.id IN (SELECT value FROM json_each(?))") }
        if selection.feedID != nil { conditions.append("episodes.feed_id = ?") }
        if selection.publishedBefore != nil { conditions.append("episodes.sort_date < ?") }
        return conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }

    /// The values `whereClause(of:)` binds, in its order.
    private static func values(of selection: EpisodeSelection) -> [SQLValue] {
        var values: [SQLValue] = []
        if let ids = selection.ids { values.append(.text("[" + ids.map(String.init).joined(separator: ",") + "]")) }
        if let feedID = selection.feedID { values.append(SQLValue(feedID)) }
        if let before = selection.publishedBefore { values.append(SQLValue(before)) }
        return values
    }
}
