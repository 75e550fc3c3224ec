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
        /// Another podcli unsubscribed from the feed while it was being refreshed: nothing failed.
        case unsubscribed(Feed)
        /// The URL serves audio, not a feed.
        case audio
    }

    /// A feed fetched and read, not yet recorded: what `fetch` hands to `subscribe` or `refresh`.
    /// The document's items come as the episodes they are to the library, made on the fetching
    /// thread (an import's reading thread) rather than the recording one.
    public enum Fetched: Sendable {
        case document(FeedDocument, [EpisodeMetadata], FeedFetchInfo)
        case notModified(FeedFetchInfo)
        case audio

        /// What the reader left out: a bad URL inside a document is the document's problem, not
        /// the command's, so the rest is recorded and this is told beside it.
        public var note: String? {
            guard case .document(let document, _, _) = self else { return nil }
            return document.unusableEnclosureNote
        }
    }

    /// Fetches and reads a feed, recording nothing: this needs only a fetcher, so it may run on a
    /// thread of its own while the library records the feeds before (`FeedImporter`).
    public static func fetch(_ request: FeedRequest, with fetcher: FeedFetcher) throws -> Fetched {
        let body = FeedBody()
        switch try fetcher.fetch(request, into: body) {
        case .audio: return .audio
        case .notModified(let info): return .notModified(info)
        case .document(let info):
            let document = try body.document(info: info, requestedURL: request.url)
            return .document(document, document.items.map(EpisodeMetadata.init), info)
        }
    }

    /// What `subscribe(url:)` asks for.
    public static func subscribeRequest(url: String) -> FeedRequest { FeedRequest(url: url, maxBytes: maxFeedBytes) }

    /// What `refresh` asks for: the feed, with its validators.
    public static func refreshRequest(for feed: Feed) -> FeedRequest {
        FeedRequest(url: feed.url, etag: feed.etag, lastModified: feed.lastModified, maxBytes: maxFeedBytes)
    }

    /// Fetches `url`; if it is a feed, subscribes to it (or refreshes the subscription it turns
    /// out to be, after a redirect).
    public func subscribe(url: String) throws -> Outcome {
        try subscribe(url: url, fetched: Self.fetch(Self.subscribeRequest(url: url), with: fetcher))
    }

    /// Subscribes to what `fetch` read from `url`, as `subscribe(url:)`.
    public func subscribe(url: String, fetched: Fetched) throws -> Outcome {
        guard case .document(let document, let episodes, let info) = fetched else { return .audio }
        var storedURL = info.movedPermanentlyTo ?? url
        if let moved = document.newFeedURL, Self.isFetchable(moved) { storedURL = moved }
        if let existing = try library.feed(url: storedURL) ?? library.feed(url: url) {
            return try record(document, episodes, info: info, for: existing)
        }
        let (feed, summary) = try library.subscribe(
            url: storedURL, metadata: FeedMetadata(document, url: storedURL),
            episodes: episodes, etag: info.etag, lastModified: info.lastModified,
            protection: protection)
        return summary.wasSubscribed ? .refreshed(feed, summary) : .subscribed(feed, summary)
    }

    /// Fetches a subscribed feed with its validators and records what changed. A failure is
    /// recorded on the feed (shown by `podcli feeds`) and rethrown, unless the feed is gone or its
    /// host could not be reached: an outage is not the feed's fault, and counting it would put
    /// every feed into backoff. `note` is told what the document's reader skipped (items whose
    /// audio is at an `ftp:` URL).
    public func refresh(_ feed: Feed, note: (String) -> Void = { _ in }) throws -> Outcome {
        try refresh(feed) {
            let fetched = try Self.fetch(Self.refreshRequest(for: feed), with: fetcher)
            fetched.note.map(note)
            return fetched
        }
    }

    /// Records what `fetched` gives (a `fetch` of `refreshRequest(for: feed)`), as `refresh`.
    public func refresh(_ feed: Feed, fetched: () throws -> Fetched) throws -> Outcome {
        do {
            switch try fetched() {
            case .audio:
                throw Self.servesAudio(feed.url)
            case .notModified(let info):
                try library.record(
                    .unchanged(etag: info.etag, lastModified: info.lastModified), for: feed,
                    url: try movedURL(for: feed, to: info.movedPermanentlyTo))
                return .unchanged(try library.feed(id: feed.id) ?? feed)
            case .document(let document, let episodes, let info):
                return try record(document, episodes, info: info, for: feed)
            }
        } catch {
            // Whatever went wrong, a feed unsubscribed meanwhile is no failure of its own.
            if case .some(.none) = try? library.feed(id: feed.id) { return .unsubscribed(feed) }
            if !(error is StoreError), error.unreachableHost == nil {
                try? library.record(.failed("\(error)"), for: feed)
            }
            throw error
        }
    }

    private func record(
        _ document: FeedDocument, _ episodes: [EpisodeMetadata], info: FeedFetchInfo, for feed: Feed
    ) throws -> Outcome {
        var url = try movedURL(for: feed, to: info.movedPermanentlyTo)
        if let announced = document.newFeedURL, Self.isFetchable(announced) {
            url = try movedURL(for: feed, to: announced)
        }
        let summary = try library.refresh(
            feed, url: url, metadata: FeedMetadata(document, url: url),
            episodes: episodes, etag: info.etag, lastModified: info.lastModified,
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
        case .sqlite, .noSpace, .io, .newerSchema, .migrationFailed, .busy: return true
        case .episodeNotFound, .ambiguousEpisode, .feedNotFound, .ambiguousFeed, .searchTooLong: return false
        }
    }
}
