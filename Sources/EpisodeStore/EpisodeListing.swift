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
    /// The exact length measured from the file, else the feed's (`Episode.durationMilliseconds`).
    public let durationMilliseconds: Int?
    /// The recorded files' size; nil when nothing is recorded.
    public let fileSize: Int?
    public let played: Bool
    public let positionMilliseconds: Int
    public let isNew: Bool
    public let isKept: Bool
    public let isStarred: Bool
    public let removedAt: Int?
    public let lastError: String?
    /// What its audio is said to be, for the FORMAT column.
    public let mediaTypeHint: MediaTypeHint
    /// Where a search found the episode; nil in a listing that is not a search.
    public let searchHit: SearchHit?

    /// What a listing selects from `episodes` joined to `feeds` and to `playback_state` as
    /// `playback` (`joins`), in the order `init(row:)` reads.
    static let columns = """
        episodes.id AS id, episodes.uuid AS uuid, episodes.feed_id AS feed_id, feeds.title AS feed_title,
        episodes.title AS title, episodes.source_url AS source_url, episodes.state AS state,
        episodes.sort_date AS sort_date, episodes.published_at AS published_at,
        \(EpisodeMeasurement.lengthMilliseconds) AS duration_ms,
        (SELECT sum(size) FROM files WHERE episode_id = episodes.id) AS file_size,
        coalesce(playback.played, 0) AS played, coalesce(playback.position_ms, 0) AS position_ms,
        episodes.is_new AS is_new, episodes.kept AS kept, episodes.starred AS starred,
        episodes.removed_at AS removed_at,
        episodes.last_error AS last_error,
        (SELECT content_type FROM files WHERE episode_id = episodes.id ORDER BY id LIMIT 1) AS file_type,
        episodes.enclosure_type AS enclosure_type
        """

    /// The joins `columns` reads beside `episodes`; a query that starts from `playback_state`
    /// joins only the feed.
    static let feedJoin = "LEFT JOIN feeds ON feeds.id = episodes.feed_id"
    static let playbackJoin = "LEFT JOIN playback_state AS playback ON playback.episode_id = episodes.id"

    /// A row of `columns`, read by name: the list is long and grows.
    init(row: Row) {
        id = Int(row.int("id")!)
        uuid = row.uuid("uuid")!
        feedID = row.int("feed_id").map(Int.init)
        feedTitle = row.string("feed_title")
        title = row.string("title")!
        sourceURL = row.string("source_url")!
        state = EpisodeState(rawValue: row.string("state")!) ?? .failed
        sortDate = Int(row.int("sort_date") ?? 0)
        publishedAt = row.int("published_at").map(Int.init)
        durationMilliseconds = row.int("duration_ms").map(Int.init)
        fileSize = row.int("file_size").map(Int.init)
        played = row.int("played") == 1
        positionMilliseconds = Int(row.int("position_ms") ?? 0)
        isNew = row.int("is_new") == 1
        isKept = row.int("kept") == 1
        isStarred = row.int("starred") == 1
        removedAt = row.int("removed_at").map(Int.init)
        lastError = row.string("last_error")
        mediaTypeHint = MediaTypeHint(
            fileType: row.string("file_type"), enclosureType: row.string("enclosure_type"), sourceURL: sourceURL)
        searchHit =
            row.has(SearchHit.inTextsColumn)
            ? SearchHit(
                inTexts: row.int(SearchHit.inTextsColumn) == 1,
                transcriptMilliseconds: row.int(SearchHit.transcriptColumn).map(Int.init))
            : nil
    }
}

/// Where a search found an episode: in its texts (title, podcast name, description), in its
/// transcript, or both.
public struct SearchHit: Equatable, Sendable {
    public let inTexts: Bool
    /// The start of the first transcript segment with every word, in milliseconds of the audio
    /// (where `play --from` starts hearing it); nil when the transcript has none.
    public let transcriptMilliseconds: Int?

    public init(inTexts: Bool, transcriptMilliseconds: Int?) {
        self.inTexts = inTexts
        self.transcriptMilliseconds = transcriptMilliseconds
    }

    /// The columns a search's listing adds to `EpisodeListing.columns`.
    static let inTextsColumn = "hit_in_texts"
    static let transcriptColumn = "hit_transcript_ms"
}
