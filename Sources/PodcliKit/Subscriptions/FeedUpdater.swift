import Downloads
import EpisodeStore
import Feeds
import FoundationEssentials

/// Subscribes to feeds and refreshes them: the one path from a feed URL to recorded episodes,
/// joining `FeedFetcher` (the bytes), `FeedParser` (the document) and `Library` (the records).
///
/// A body that cannot be read as a feed changes nothing stored: the document is parsed
/// completely before the one transaction that records it.
public struct FeedUpdater {
    public let library: Library
    public let fetcher: FeedFetcher
    public let protection: Protection

    public init(library: Library, fetcher: FeedFetcher, protection: Protection) {
        self.library = library
        self.fetcher = fetcher
        self.protection = protection
    }

    /// Longest feed read: the largest real feeds are tens of MB.
    public static let maxFeedBytes = 128 * 1024 * 1024

    public enum Outcome {
        case subscribed(Feed, MergeSummary)
        case refreshed(Feed, MergeSummary)
        case unchanged(Feed)
        /// The URL serves audio, not a feed.
        case audio
    }

    /// Fetches `url`; if it is a feed, subscribes to it (or refreshes the subscription it turns
    /// out to be, after a redirect).
    public func subscribe(url: String) throws -> Outcome {
        let body = FeedBody()
        let response = try fetcher.fetch(FeedRequest(url: url, maxBytes: Self.maxFeedBytes), into: body)
        guard case .document(let info) = response else { return .audio }
        let document = try body.document(info: info, requestedURL: url)
        var storedURL = info.movedPermanentlyTo ?? url
        if let moved = document.newFeedURL, Self.isFetchable(moved) { storedURL = moved }
        if let existing = try library.feed(url: storedURL) ?? library.feed(url: url) {
            return try record(document, info: info, for: existing)
        }
        let (feed, summary) = try library.subscribe(
            url: storedURL, metadata: FeedMetadata(document, url: storedURL),
            episodes: document.items.map(EpisodeMetadata.init), etag: info.etag, lastModified: info.lastModified,
            protection: protection)
        return summary.wasSubscribed ? .refreshed(feed, summary) : .subscribed(feed, summary)
    }

    /// Fetches a subscribed feed with its validators and records what changed. A failure is
    /// recorded on the feed (shown by `podcli feeds`) and rethrown.
    public func refresh(_ feed: Feed) throws -> Outcome {
        do {
            let body = FeedBody()
            let request = FeedRequest(
                url: feed.url, etag: feed.etag, lastModified: feed.lastModified, maxBytes: Self.maxFeedBytes)
            switch try fetcher.fetch(request, into: body) {
            case .audio:
                throw Self.servesAudio(feed.url)
            case .notModified(let info):
                try library.record(
                    .unchanged(etag: info.etag, lastModified: info.lastModified), for: feed,
                    url: try movedURL(for: feed, to: info.movedPermanentlyTo))
                return .unchanged(try library.feed(id: feed.id) ?? feed)
            case .document(let info):
                let document = try body.document(info: info, requestedURL: feed.url)
                return try record(document, info: info, for: feed)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            try? library.record(.failed("\(error)"), for: feed)
            throw error
        }
    }

    private func record(_ document: FeedDocument, info: FeedFetchInfo, for feed: Feed) throws -> Outcome {
        var url = try movedURL(for: feed, to: info.movedPermanentlyTo)
        if let announced = document.newFeedURL, Self.isFetchable(announced) {
            url = try movedURL(for: feed, to: announced)
        }
        let summary = try library.refresh(
            feed, url: url, metadata: FeedMetadata(document, url: url),
            episodes: document.items.map(EpisodeMetadata.init), etag: info.etag, lastModified: info.lastModified,
            protection: protection)
        return .refreshed(try library.feed(id: feed.id) ?? feed, summary)
    }

    /// The URL to keep for `feed` when it moved to `target`: the target, unless another
    /// subscription already has that URL.
    private func movedURL(for feed: Feed, to target: String?) throws(StoreError) -> String {
        guard let target, target != feed.url else { return feed.url }
        if let other = try library.feed(url: target), other.id != feed.id { return feed.url }
        return target
    }

    /// The error for a feed URL that serves an episode instead.
    public static func servesAudio(_ url: String) -> PodcliError { .servesAudio(url: url) }

    public static func isFetchable(_ url: String) -> Bool {
        (try? DownloadError.checkFetchable(url)) != nil
    }
}


extension StoreError {
    /// A failure of the library itself, not of one feed: going on would fail the same way.
    public var isLibraryFailure: Bool {
        switch self {
        case .sqlite, .io, .newerSchema, .migrationFailed, .busy: return true
        case .episodeNotFound, .ambiguousEpisode, .feedNotFound, .ambiguousFeed: return false
        }
    }
}
