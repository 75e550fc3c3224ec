/// Which episodes `podcli list` shows.
public struct EpisodeFilter: Sendable {
    public var feedID: Int?
    /// New and not yet played.
    public var onlyNew = false
    public var onlyDownloaded = false
    public var onlyPlayed = false
    public var onlyStarred = false
    /// Words to look for (`SearchQuery`): episodes whose title, podcast name or description has
    /// every word (or a word beginning with it), best match first.
    public var search: String?

    public init() {}

    /// True when the filter leaves some episodes out.
    public var isFiltered: Bool {
        feedID != nil || onlyNew || onlyDownloaded || onlyPlayed || onlyStarred || search != nil
    }
}

/// The part of a listing to read: `limit` episodes after the first `offset` (all of the rest when
/// `limit` is nil).
public struct ListingPage: Equatable, Sendable {
    public var offset: Int
    public var limit: Int?

    public init(offset: Int = 0, limit: Int? = nil) {
        self.offset = offset
        self.limit = limit
    }

    public static let all = ListingPage()
}
