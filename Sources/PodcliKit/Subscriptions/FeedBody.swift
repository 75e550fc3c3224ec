import Downloads
import Feeds

/// A feed's body parsed as it downloads: the sink `FeedFetcher` streams into.
public final class FeedBody: FeedBodySink {
    private var reader = FeedReader(baseURL: "")

    public init() {}

    public func begin(url: String) { reader = FeedReader(baseURL: url) }

    public func receive(_ bytes: UnsafeRawBufferPointer) { reader.feed(bytes) }

    /// The document read, or a one-line failure naming `requestedURL` (an HTML page gets the
    /// captive-portal wording, as for audio).
    public func document(info: FeedFetchInfo, requestedURL: String) throws -> FeedDocument {
        do {
            return try reader.finish()
        } catch {
            if case .notAFeed(let root) = error, info.mediaType == "text/html" || root.lowercased() == "html" {
                throw PodcliError.htmlPage(url: requestedURL)
            }
            throw PodcliError.unreadableFeed(url: requestedURL, error)
        }
    }
}
