import EpisodeStore

/// One episode of `list --json`: what the table shows, with numbers left as numbers.
struct EpisodeLine: Encodable {
    let id: Int
    let uuid: String
    let feedID: Int?
    let feed: String?
    let title: String
    /// The download state ("new" means nothing downloaded yet).
    let state: String
    /// What the STATE column shows: played, downloaded, new (listed and unheard), ...
    let status: String
    let new: Bool
    let played: Bool
    /// Seconds into the episode.
    let position: Double
    let publishedAt: Int?
    let duration: Double?
    let size: Int?
    /// The audio format: MP3, M4A, AAC, Opus, Vorbis, FLAC (see `EpisodeFormat`).
    let format: String?
    let url: String
    /// Kept from sync's retention (`podcli keep`).
    let kept: Bool
    /// Why the last download failed.
    let error: String?

    enum CodingKeys: String, CodingKey {
        case id, uuid, feed, title, state, status, new, played, position, duration, size, format, url, kept, error
        case feedID = "feed_id"
        case publishedAt = "published_at"
    }

    init(_ listing: EpisodeListing) {
        id = listing.id
        uuid = listing.uuid
        feedID = listing.feedID
        feed = listing.feedTitle
        title = listing.title
        state = listing.state.rawValue
        new = listing.isNew && !listing.played
        played = listing.played
        position = Double(listing.positionMilliseconds) / 1000
        publishedAt = listing.publishedAt
        duration = listing.durationMilliseconds.map { Double($0) / 1000 }
        size = listing.fileSize
        format = EpisodeFormat.name(listing.mediaTypeHint)
        url = listing.sourceURL
        kept = listing.isKept
        error = listing.state == .failed ? listing.lastError : nil
        if listing.removedAt != nil {
            status = "deleted"
        } else if played {
            status = "played"
        } else if listing.state != .new {
            status = listing.state.rawValue
        } else {
            status = new ? "new" : "-"
        }
    }
}
