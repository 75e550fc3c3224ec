/// A moment of an episode a listener marked while playing: where (the position heard), in which
/// chapter, with what note, and when.
public struct Bookmark: Equatable, Sendable {
    /// The number `bookmarks` lists and `bookmarks rm` takes; never given to another bookmark.
    public let id: Int
    /// nil for a bookmark kept through an unsubscribe that forgot its episode
    /// (`unsubscribe --keep-bookmarks`): the titles and URL below are then the copies kept.
    public let episodeID: Int?
    public let episodeTitle: String
    /// The feed's title; nil for an episode fetched by its audio URL.
    public let feedTitle: String?
    /// The episode's audio URL: what plays the moment again once the episode is forgotten.
    public let sourceURL: String
    public let positionMilliseconds: Int
    /// The title of the chapter playing at the position, when the episode has chapters.
    public let chapter: String?
    public let note: String?
    /// Seconds since the epoch.
    public let createdAt: Int

    /// What a query of bookmarks selects, from `bookmarks` left-joined to `episodes` and `feeds`
    /// (`joins`): the episode's and the feed's titles as they are now, else as they were kept.
    static let columns = """
        bookmarks.id, bookmarks.episode_id, coalesce(episodes.title, bookmarks.episode_title),
        coalesce(feeds.title, bookmarks.feed_title), coalesce(episodes.source_url, bookmarks.source_url),
        bookmarks.position_ms, bookmarks.chapter, bookmarks.note, bookmarks.created_at
        """
    static let joins = """
        LEFT JOIN episodes ON episodes.id = bookmarks.episode_id LEFT JOIN feeds ON feeds.id = episodes.feed_id
        """

    init(row: Row) {
        id = Int(row.int(0)!)
        episodeID = row.int(1).map(Int.init)
        episodeTitle = row.string(2) ?? ""
        feedTitle = row.string(3)
        sourceURL = row.string(4) ?? ""
        positionMilliseconds = Int(row.int(5) ?? 0)
        chapter = row.string(6)
        note = row.string(7)
        createdAt = Int(row.int(8) ?? 0)
    }
}
