import EpisodeStore

/// What `feeds --json` (and `fetch --json` for a feed) tells about a subscription.
struct FeedReport: Encodable {
    let id: Int
    let url: String
    let title: String
    let author: String?
    let link: String?
    let imageURL: String?
    let episodes: Int
    let new: Int
    let downloaded: Int
    let subscribedAt: Int
    let checkedAt: Int?
    let changedAt: Int?
    let lastError: String?
    let failures: Int
    /// After repeated failures, sync leaves the feed alone until then.
    let retryAt: Int?

    enum CodingKeys: String, CodingKey {
        case id, url, title, author, link, episodes, new, downloaded, failures
        case imageURL = "image_url"
        case subscribedAt = "subscribed_at"
        case checkedAt = "checked_at"
        case changedAt = "changed_at"
        case lastError = "last_error"
        case retryAt = "retry_at"
    }

    init(_ summary: FeedSummary) {
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
