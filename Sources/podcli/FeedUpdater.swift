import Downloads
import EpisodeStore
import Feeds
import FoundationEssentials

/// Subscribes to feeds and refreshes them: the one path from a feed URL to recorded episodes,
/// joining `FeedFetcher` (the bytes), `FeedParser` (the document) and `Library` (the records).
///
/// A body that cannot be read as a feed changes nothing stored: the document is parsed
/// completely before the one transaction that records it.
struct FeedUpdater {
    let library: Library
    let fetcher: FeedFetcher
    let protection: Protection

    /// Longest feed read: the largest real feeds are tens of MB.
    static let maxFeedBytes = 128 * 1024 * 1024

    enum Outcome {
        case subscribed(Feed, MergeSummary)
        case refreshed(Feed, MergeSummary)
        case unchanged(Feed)
        /// The URL serves audio, not a feed.
        case audio
    }

    /// Fetches `url`; if it is a feed, subscribes to it (or refreshes the subscription it turns
    /// out to be, after a redirect).
    func subscribe(url: String) throws -> Outcome {
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
    func refresh(_ feed: Feed) throws -> Outcome {
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

    /// Runs `body` for each of `items` (feeds or URLs), telling a failure on one line of its own
    /// (led by `name`) and going on with the rest; a failure of the library itself stops at once.
    /// - Throws: a summary failure with the first failure's exit code, when any failed.
    static func forEach<Item>(
        _ items: [Item], output: Output, name: (Item) -> String, _ body: (Item) throws -> Void
    ) throws {
        var failures: [Error] = []
        for item in items {
            do {
                try body(item)
            } catch let error as StoreError where error.isLibraryFailure {
                throw error
            } catch {
                output.error("\(name(item)): \(error)")
                failures.append(error)
            }
        }
        if let first = failures.first {
            throw CommandFailure(
                description: "\(Formatting.count(failures.count, "feed")) of \(items.count) failed",
                exitCode: ExitCode(for: first))
        }
    }

    /// The error for a feed URL that serves an episode instead.
    static func servesAudio(_ url: String) -> CommandFailure {
        CommandFailure(
            description: "\(url) serves audio, not a feed ('podcli fetch' downloads it as an episode)",
            exitCode: .badContent)
    }

    static func isFetchable(_ url: String) -> Bool {
        (try? DownloadError.checkFetchable(url)) != nil
    }
}

/// A feed's body parsed as it downloads: the sink `FeedFetcher` streams into.
final class FeedBody: FeedBodySink {
    private var reader = FeedReader(baseURL: "")

    func begin(url: String) { reader = FeedReader(baseURL: url) }

    func receive(_ bytes: UnsafeRawBufferPointer) { reader.feed(bytes) }

    /// The document read, or a one-line failure naming `requestedURL` (an HTML page gets the
    /// captive-portal wording, as for audio).
    func document(info: FeedFetchInfo, requestedURL: String) throws -> FeedDocument {
        do {
            return try reader.finish()
        } catch {
            if case .notAFeed(let root) = error, info.mediaType == "text/html" || root.lowercased() == "html" {
                throw CommandFailure(
                    description: "\(requestedURL) is not a feed or audio (the server sent an HTML page, perhaps a "
                        + "captive portal or login page); nothing was kept", exitCode: .badContent)
            }
            throw CommandFailure(description: "\(requestedURL): \(error)", exitCode: .badContent)
        }
    }
}

extension FeedMetadata {
    init(_ document: FeedDocument, url: String) {
        self.init(title: document.title.isEmpty ? (URLComponents(string: url)?.host ?? url) : document.title)
        link = document.link
        description = document.description
        author = document.author
        imageURL = document.imageURL
        language = document.language
        isSerial = document.isSerial
        explicit = document.explicit
        podcastGUID = document.podcastGUID
    }
}

extension EpisodeMetadata {
    init(_ item: FeedItem) {
        self.init(
            title: item.title, sourceURL: item.enclosure.url, mediaKey: TrackingPrefix.strip(item.enclosure.url))
        guid = item.guid
        author = item.author
        publishedAt = item.published.map(Int.init)
        durationMilliseconds = item.duration.map { Int(($0 * 1000).rounded()) }
        enclosureLength = item.enclosure.length.map(Int.init)
        enclosureType = item.enclosure.type
        link = item.link
        description = item.description
        imageURL = item.imageURL
        episodeNumber = item.episodeNumber
        seasonNumber = item.seasonNumber
        episodeType = item.episodeType
        explicit = item.explicit
        chaptersJSON = Self.json(item.chapters)
        chaptersURL = item.chaptersURL
        transcriptsJSON = Self.json(item.transcripts)
        personsJSON = Self.json(item.persons)
    }

    /// A compact JSON array, or nil for an empty one.
    private static func json<T: Encodable>(_ values: [T]) -> String? {
        guard !values.isEmpty, let data = try? JSONEncoder().encode(values) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

extension StoreError {
    /// A failure of the library itself, not of one feed: going on would fail the same way.
    var isLibraryFailure: Bool {
        switch self {
        case .sqlite, .io, .newerSchema, .migrationFailed, .busy: return true
        case .episodeNotFound, .ambiguousEpisode, .feedNotFound, .ambiguousFeed: return false
        }
    }
}
