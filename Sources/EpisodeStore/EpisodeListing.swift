/// One line of a listing: what `list` and `queue ls` show of an episode, and no more (no
/// description, no other long text), read in one query.
public struct EpisodeListing: Equatable, Sendable {
    public let id: Int
    public let uuid: String
    public let feedID: Int?
    public let feedTitle: String?
    public let title: String
    public let sourceURL: String
    public let state: EpisodeState
    /// What "newest" sorts by (see `Episode.sortDate`).
    public let sortDate: Int
    public let publishedAt: Int?
    public let durationMilliseconds: Int?
    /// The recorded files' size; nil when nothing is recorded.
    public let fileSize: Int?
    public let played: Bool
    public let positionMilliseconds: Int
    public let isNew: Bool
    public let isKept: Bool
    public let removedAt: Int?
    public let lastError: String?
    /// What its audio is said to be, for the FORMAT column.
    public let mediaTypeHint: MediaTypeHint

    /// What a listing selects from `episodes` joined to `feeds` and to `playback_state` as
    /// `playback` (`joins`), in the order `init(row:)` reads.
    static let columns = """
        episodes.id, episodes.uuid, episodes.feed_id, feeds.title, episodes.title, episodes.source_url,
        episodes.state, episodes.sort_date, episodes.published_at, episodes.duration_ms,
        (SELECT sum(size) FROM files WHERE episode_id = episodes.id), coalesce(playback.played, 0),
        coalesce(playback.position_ms, 0), episodes.is_new, episodes.kept, episodes.removed_at, episodes.last_error,
        (SELECT content_type FROM files WHERE episode_id = episodes.id ORDER BY id LIMIT 1), episodes.enclosure_type
        """

    /// The joins `columns` reads beside `episodes`; a query that starts from `playback_state`
    /// joins only the feed.
    static let feedJoin = "LEFT JOIN feeds ON feeds.id = episodes.feed_id"
    static let playbackJoin = "LEFT JOIN playback_state AS playback ON playback.episode_id = episodes.id"

    init(row: Row) {
        id = Int(row.int(0)!)
        uuid = row.string(1)!
        feedID = row.int(2).map(Int.init)
        feedTitle = row.string(3)
        title = row.string(4)!
        sourceURL = row.string(5)!
        state = EpisodeState(rawValue: row.string(6)!) ?? .failed
        sortDate = Int(row.int(7) ?? 0)
        publishedAt = row.int(8).map(Int.init)
        durationMilliseconds = row.int(9).map(Int.init)
        fileSize = row.int(10).map(Int.init)
        played = row.int(11) == 1
        positionMilliseconds = Int(row.int(12) ?? 0)
        isNew = row.int(13) == 1
        isKept = row.int(14) == 1
        removedAt = row.int(15).map(Int.init)
        lastError = row.string(16)
        mediaTypeHint = MediaTypeHint(fileType: row.string(17), enclosureType: row.string(18), sourceURL: sourceURL)
    }
}
