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
    /// Also matched against transcripts (schema 16): an episode is found when one of its
    /// segments has every word.
    public var search: String?
    /// A search matching more episodes' texts, or more transcript segments, than this lists its
    /// episodes newest first instead of ranking them (`SearchOrder`): ranking reads every match
    /// before the first one is shown.
    public var rankedSearchLimit = EpisodeFilter.defaultRankedSearchLimit

    /// Ranking 10,000 matches takes about as long as podcli takes to start (bench/README.md).
    public static let defaultRankedSearchLimit = 10_000

    public init() {}

    /// True when the filter leaves some episodes out.
    public var isFiltered: Bool {
        feedID != nil || onlyNew || onlyDownloaded || onlyPlayed || onlyStarred || search != nil
    }
}

/// The order of a search's listing.
public enum SearchOrder: Equatable, Sendable {
    /// Best match first: matches in the title, podcast name or description by BM25 (a word in the
    /// title weighing most), then those found only in a transcript, newest first.
    case bestMatch
    /// Newest first: more episodes' texts or transcript segments match than
    /// `EpisodeFilter.rankedSearchLimit`.
    case newest
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
