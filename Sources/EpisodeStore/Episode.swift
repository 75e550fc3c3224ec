/// An episode podcli knows: where it comes from, where it is in its download life, how it is
/// protected on disk.
public struct Episode: Equatable, Sendable {
    public let id: Int
    public let uuid: String
    public let feedID: Int?
    public let title: String
    public let sourceURL: String
    public let state: EpisodeState
    public let protection: Protection
    /// ETag or Last-Modified of the partial download, sent back as If-Range when resuming.
    public let validator: String?
    /// Seconds since the epoch.
    public let createdAt: Int
    public let downloadedAt: Int?
    /// From the feed; nil for an episode fetched by its audio URL, or when the feed did not say.
    public let guid: String?
    public let publishedAt: Int?
    /// `publishedAt`, or else a date set once when podcli first saw the episode, keeping its
    /// place in the feed: what "newest" sorts by.
    public let sortDate: Int
    /// The exact length measured from the downloaded file, else the feed's `itunes:duration`.
    public let durationMilliseconds: Int?
    public let enclosureLength: Int?
    public let link: String?
    /// As the feed gave it, often HTML.
    public let description: String?
    public let imageURL: String?
    public let episodeNumber: Int?
    public let seasonNumber: Int?
    public let episodeType: String?
    /// JSON arrays as stored: Podlove Simple Chapters, transcripts, persons.
    public let chaptersJSON: String?
    public let chaptersURL: String?
    public let transcriptsJSON: String?
    public let personsJSON: String?
    /// False once the feed stopped listing it (the row and files are kept).
    public let inFeed: Bool
    /// Appeared in a refresh after subscribing (or was the newest at subscription).
    public let isNew: Bool
    /// Kept by the user: retention never deletes it.
    public let isKept: Bool
    /// When its files were deleted while its feed still lists it: sync does not download it again.
    public let removedAt: Int?
    /// Why the last download failed; nil after a success.
    public let lastError: String?
    /// The item's own itunes:author (the podcast's is its feed's).
    public let author: String?
    /// Starred by the user (`podcli star`, schema 10).
    public let isStarred: Bool

    /// What a query of whole episodes selects, from `episodes` joined to `texts` (`withTexts`).
    static let columns = """
        episodes.id, uuid, feed_id, episodes.title, source_url, state, episodes.protection, validator, created_at,
        downloaded_at, guid, published_at, sort_date, \(EpisodeMeasurement.lengthMilliseconds),
        enclosure_length, episodes.link,
        texts.description, episodes.image_url, episode_number, season_number, episode_type, texts.chapters,
        chapters_url, texts.transcripts, texts.persons, in_feed, is_new, kept, removed_at, episodes.last_error,
        episodes.author, episodes.starred
        """

    /// The join that brings an episode's long texts (kept in a table of their own) to `columns`.
    static let withTexts = "LEFT JOIN episode_texts AS texts ON texts.episode_id = episodes.id"

    /// How many values `columns` selects: a query's own columns follow them.
    static let columnCount = 32

    init(row: Row) {
        id = Int(row.int(0)!)
        uuid = row.uuid(1)!
        feedID = row.int(2).map(Int.init)
        title = row.string(3)!
        sourceURL = row.string(4)!
        state = EpisodeState(rawValue: row.string(5)!) ?? .failed
        protection = Protection(rawValue: row.string(6)!) ?? .private
        validator = row.string(7)
        createdAt = Int(row.int(8)!)
        downloadedAt = row.int(9).map(Int.init)
        guid = row.string(10)
        publishedAt = row.int(11).map(Int.init)
        sortDate = Int(row.int(12) ?? row.int(8)!)
        durationMilliseconds = row.int(13).map(Int.init)
        enclosureLength = row.int(14).map(Int.init)
        link = row.string(15)
        description = row.string(16)
        imageURL = row.string(17)
        episodeNumber = row.int(18).map(Int.init)
        seasonNumber = row.int(19).map(Int.init)
        episodeType = row.string(20)
        chaptersJSON = row.string(21)
        chaptersURL = row.string(22)
        transcriptsJSON = row.string(23)
        personsJSON = row.string(24)
        inFeed = row.int(25) != 0
        isNew = row.int(26) == 1
        isKept = row.int(27) == 1
        removedAt = row.int(28).map(Int.init)
        lastError = row.string(29)
        author = row.string(30)
        isStarred = row.int(31) == 1
    }
}

/// Where an episode is in its download life.
public enum EpisodeState: String, Sendable, CaseIterable {
    case new, queued, downloading, downloaded, failed
}
