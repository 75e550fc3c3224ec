/// A subscription: where the feed is, what it says about the podcast, how its last refresh went.
public struct Feed: Equatable, Sendable {
    public let id: Int
    public let url: String
    public let title: String
    public let link: String?
    public let description: String?
    public let author: String?
    public let imageURL: String?
    public let language: String?
    public let isSerial: Bool
    public let etag: String?
    public let lastModified: String?
    public let subscribedAt: Int
    /// The last successful fetch (200 or 304), and the last one that brought a new document (200).
    public let checkedAt: Int?
    public let changedAt: Int?
    public let lastError: String?
    /// Refreshes that failed in a row.
    public let failures: Int
    /// After repeated failures, `sync` leaves the feed alone until then (seconds since the epoch).
    public let retryAt: Int?

    static let columns = """
        feeds.id, url, feeds.title, feeds.link, feeds.description, author, feeds.image_url, language, serial, etag,
        last_modified, subscribed_at, checked_at, changed_at, last_error, failures, retry_at
        """

    /// How many values `columns` selects: a query's own columns follow them.
    static let columnCount = 17

    init(row: Row) {
        id = Int(row.int(0)!)
        url = row.string(1)!
        title = row.string(2)!
        link = row.string(3)
        description = row.string(4)
        author = row.string(5)
        imageURL = row.string(6)
        language = row.string(7)
        isSerial = row.int(8) == 1
        etag = row.string(9)
        lastModified = row.string(10)
        subscribedAt = Int(row.int(11)!)
        checkedAt = row.int(12).map(Int.init)
        changedAt = row.int(13).map(Int.init)
        lastError = row.string(14)
        failures = Int(row.int(15) ?? 0)
        retryAt = row.int(16).map(Int.init)
    }
}

/// A feed with the counts `podcli feeds` shows.
public struct FeedSummary: Equatable, Sendable {
    public let feed: Feed
    public let episodes: Int
    public let new: Int
    public let downloaded: Int
}

/// What a feed document says about the podcast, as the store keeps it.
public struct FeedMetadata: Equatable, Sendable {
    public var title: String
    public var link: String?
    public var description: String?
    public var author: String?
    public var imageURL: String?
    public var language: String?
    public var isSerial = false
    public var explicit: Bool?
    public var podcastGUID: String?

    public init(title: String) { self.title = title }
}

/// What a feed says about one episode, as the store keeps it.
public struct EpisodeMetadata: Equatable, Sendable {
    public var title: String
    /// The enclosure URL, downloaded from.
    public var sourceURL: String
    /// The enclosure URL without tracking prefixes: the same episode's URL across trackers.
    public var mediaKey: String
    public var guid: String?
    public var publishedAt: Int?
    public var durationMilliseconds: Int?
    public var enclosureLength: Int?
    public var enclosureType: String?
    public var link: String?
    public var description: String?
    public var imageURL: String?
    public var episodeNumber: Int?
    public var seasonNumber: Int?
    public var episodeType: String?
    public var explicit: Bool?
    public var chaptersJSON: String?
    public var chaptersURL: String?
    public var transcriptsJSON: String?
    public var personsJSON: String?
    /// The item's own itunes:author.
    public var author: String?

    public init(title: String, sourceURL: String, mediaKey: String) {
        self.title = title
        self.sourceURL = sourceURL
        self.mediaKey = mediaKey
    }
}

/// What one refresh changed.
public struct MergeSummary: Equatable, Sendable {
    /// Episodes seen for the first time, and which of them count as new.
    public var added = 0
    public var newEpisodeIDs: [Int] = []
    /// Known episodes found again.
    public var matched = 0
    /// Known episodes the feed no longer lists (kept, with their files).
    public var dropped = 0
    /// Items that repeated an earlier item of the same document (same guid and enclosure).
    public var repeated = 0
    /// A subscription found the feed subscribed already (by another podcli, meanwhile) and
    /// recorded the document as a refresh of it.
    public var wasSubscribed = false

    public init() {}
}

/// How a fetch of the feed ended, for the feed's record.
public enum FeedCheck: Sendable {
    /// 304: unchanged. The validators may still be refreshed.
    case unchanged(etag: String?, lastModified: String?)
    case failed(String)
}
