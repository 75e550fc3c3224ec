import EpisodeStore

/// What `feeds --json` (and `fetch --json` for a feed) tells about a subscription.
public struct FeedReport: Encodable {
    public let id: Int
    public let url: String
    public let title: String
    public let author: String?
    public let link: String?
    public let imageURL: String?
    public let episodes: Int
    public let new: Int
    public let downloaded: Int
    public let subscribedAt: Int
    public let checkedAt: Int?
    public let changedAt: Int?
    public let lastError: String?
    public let failures: Int
    /// After repeated failures, sync leaves the feed alone until then.
    public let retryAt: Int?

    public enum CodingKeys: String, CodingKey {
        case id, url, title, author, link, episodes, new, downloaded, failures
        case imageURL = "image_url"
        case subscribedAt = "subscribed_at"
        case checkedAt = "checked_at"
        case changedAt = "changed_at"
        case lastError = "last_error"
        case retryAt = "retry_at"
    }

    public init(_ summary: FeedSummary) {
        let feed = summary.feed
        id = feed.id
        url = feed.url
        title = feed.title
        author = feed.author
        link = feed.link
        imageURL = feed.imageURL
        episodes = summary.episodes
        new = summary.new
        downloaded = summary.downloaded
        subscribedAt = feed.subscribedAt
        checkedAt = feed.checkedAt
        changedAt = feed.changedAt
        lastError = feed.lastError
        failures = feed.failures
        retryAt = feed.retryAt
    }
}
