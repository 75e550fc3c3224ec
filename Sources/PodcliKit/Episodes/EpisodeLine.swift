import EpisodeStore

/// One episode of `list --json`: what the table shows, with numbers left as numbers. A projection
/// of `show --json` (`EpisodeReport`): the same names, the same values, from the same sources.
public struct EpisodeLine: Encodable {
    public let id: Int
    public let uuid: String
    public let feedID: Int?
    public let feed: String?
    public let title: String
    /// The download state ("new" means nothing downloaded yet).
    public let state: String
    /// What the STATE column shows: played, downloaded, new (listed and unheard), ...
    public let status: String
    public let new: Bool
    public let played: Bool
    /// Seconds into the episode.
    public let position: Double
    public let publishedAt: Int?
    public let duration: Double?
    public let size: Int?
    /// The audio format: MP3, M4A, AAC, Opus, Vorbis, FLAC (see `EpisodeFormat`).
    public let format: String?
    public let url: String
    /// Kept from sync's retention (`podcli keep`).
    public let kept: Bool
    /// Starred by the user (`podcli star`).
    public let starred: Bool
    /// Why the last download failed or stopped (as `show --json`'s).
    public let lastError: String?
    /// Where a search (`list -s`) found the episode; absent in other listings.
    public let found: Found?

    /// Where a search found an episode: in its title, podcast name or description (`texts`), and
    /// at what time in its transcript (`transcript_at`, seconds: where `play --from` hears it).
    public struct Found: Encodable, Equatable {
        public let texts: Bool
        public let transcriptAt: Double?

        public enum CodingKeys: String, CodingKey {
            case texts
            case transcriptAt = "transcript_at"
        }

        /// What the FOUND column shows: "text", the time in the transcript, or both.
        public var summary: String {
            let time = transcriptAt.map { Formatting.duration(seconds: Int($0)) }
            return [texts ? "text" : nil, time].compactMap { $0 }.joined(separator: ", ")
        }
    }

    public enum CodingKeys: String, CodingKey {
        case id, uuid, feed, title, state, status, new, played, position, duration, size, format, url, kept, starred
        case found
        case feedID = "feed_id"
        case publishedAt = "published_at"
        case lastError = "last_error"
    }

    public init(_ listing: EpisodeListing) {
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
        starred = listing.isStarred
        lastError = listing.lastError
        found = listing.searchHit.map {
            Found(texts: $0.inTexts, transcriptAt: $0.transcriptMilliseconds.map { Double($0) / 1000 })
        }
        status = Self.status(
            state: listing.state, removed: listing.removedAt != nil, played: listing.played, new: new)
    }

    /// What the STATE column shows: deleted, played, the download's state past `new`, else new
    /// (listed and unheard) or "-".
    public static func status(state: EpisodeState, removed: Bool, played: Bool, new: Bool) -> String {
        if removed { return "deleted" }
        if played { return "played" }
        if state != .new { return state.rawValue }
        return new ? "new" : "-"
    }
}
