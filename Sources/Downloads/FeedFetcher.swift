import AudioFormats
import CCurl
import Threads

/// A conditional GET of a feed.
public struct FeedRequest: Sendable {
    public var url: String
    /// Validators from the last fetch, sent as If-None-Match / If-Modified-Since.
    public var etag: String?
    public var lastModified: String?
    /// A body longer than this is refused.
    public var maxBytes: Int

    public init(url: String, etag: String? = nil, lastModified: String? = nil, maxBytes: Int) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.maxBytes = maxBytes
    }
}

/// Takes a feed's body as it arrives, so it can be parsed while it downloads: no file, and the
/// parsing overlaps the network.
public protocol FeedBodySink: AnyObject {
    /// A body begins: forget any earlier one (a retry starts over). `url` is where it comes
    /// from, after redirects, for resolving relative URLs.
    func begin(url: String)
    func receive(_ bytes: UnsafeRawBufferPointer)
}

/// How a feed fetch ended.
public enum FeedResponse: Equatable, Sendable {
    /// 200: the whole body went to the sink.
    case document(FeedFetchInfo)
    /// 304: unchanged since the validators were issued.
    case notModified(FeedFetchInfo)
    /// The URL serves audio (by its type or its first bytes), not a feed; the transfer was
    /// stopped at once and nothing was written.
    case audio(finalURL: String)
}

public struct FeedFetchInfo: Equatable, Sendable {
    /// Where the response came from, after redirects.
    public let finalURL: String
    /// `finalURL` when every redirect on the way was permanent (301 or 308): the new address to
    /// store. nil when there was no redirect or a temporary one.
    public let movedPermanentlyTo: String?
    public let etag: String?
    public let lastModified: String?
    public let mediaType: String?
}

/// Fetches feeds: conditional GET, gzip, redirects (noting permanent ones), a size limit, and the
/// same retries as downloads, streaming the body to a `FeedBodySink`. Owns one curl handle,
/// reused across fetches (keep-alive).
public final class FeedFetcher {
    private let policy: DownloadPolicy
    private let transfer: Transfer

    /// - Parameter stop: ends a fetch at once when signalled (the thread fetching was told to stop).
    public init(policy: DownloadPolicy, stop: StopEvent? = nil) {
        self.policy = policy
        self.transfer = Transfer(policy: policy, stop: stop)
    }

    /// - Throws: `DownloadError` (`.feedTooLarge` past `maxBytes`, `.stopped` when the stop event
    ///   ended it). On failure what the sink got is not a whole body.
    public func fetch(_ request: FeedRequest, into sink: any FeedBodySink) throws(DownloadError) -> FeedResponse {
        try DownloadError.checkFetchable(request.url)
        var attemptNumber = 0
        while true {
            attemptNumber += 1
            let exchange = FeedExchange(
                maxBytes: request.maxBytes, sink: sink, effectiveURL: { [transfer] in transfer.effectiveURL })
            var headers: [String] = []
            if let etag = request.etag { headers.append("If-None-Match: \(etag)") }
            if let lastModified = request.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
            let result = transfer.perform(
                Transfer.Exchange(url: request.url, headers: headers, acceptCompression: true), sink: exchange)
            exchange.finish(transferred: result.code == CURLE_OK)
            if result.stopped { throw .stopped(url: request.url) }
            let retryable: DownloadError
            switch exchange.stop {
            case .audio:
                return .audio(finalURL: result.effectiveURL)
            case .tooLarge:
                throw .feedTooLarge(url: request.url, limit: request.maxBytes)
            case .httpStatus(let status):
                let error = DownloadError.http(status: status, url: request.url, attempts: attemptNumber)
                guard status == 408 || status == 429 || status >= 500 else { throw error }
                retryable = error
            case nil:
                if result.code == CURLE_OK {
                    let info = exchange.info(finalURL: result.effectiveURL)
                    guard exchange.headers.status == 304 else { return .document(info) }
                    // A 304 is only an answer to the validators sent; without them it is an error.
                    guard request.etag != nil || request.lastModified != nil else {
                        throw .http(status: 304, url: request.url, attempts: attemptNumber)
                    }
                    return .notModified(info)
                }
                retryable = try result.retryableError(url: request.url, policy: policy)
            }
            guard attemptNumber < policy.maxAttempts else { throw retryable.afterAttempts(attemptNumber) }
            let retryAfter = exchange.headers.retryAfter
            if let retryAfter, retryAfter > policy.maxRetryAfter {
                throw .retryTooLate(url: request.url, seconds: retryAfter)
            }
            DownloadPolicy.sleep(seconds: retryAfter.map(Double.init) ?? policy.delay(beforeRetry: attemptNumber))
        }
    }
}

/// One exchange of a feed fetch: notes the redirect chain, decides at the first body byte whether
/// this is a feed worth reading, and passes it on.
final class FeedExchange: TransferSink {
    enum Stop: Equatable {
        case audio, tooLarge
        case httpStatus(Int)
    }

    private let maxBytes: Int
    private let sink: any FeedBodySink
    private let effectiveURL: () -> String
    private(set) var headers = ResponseHeaders()
    private(set) var stop: Stop?
    /// Statuses of the redirects before the final response.
    private var redirects: [Int] = []
    private var received = 0
    private var began = false

    init(maxBytes: Int, sink: any FeedBodySink, effectiveURL: @escaping () -> String) {
        self.maxBytes = maxBytes
        self.sink = sink
        self.effectiveURL = effectiveURL
    }

    func receiveHeader(_ line: String) {
        if line.hasPrefix("HTTP/"), (300..<400).contains(headers.status), headers.status != 304 {
            redirects.append(headers.status)
        }
        headers.take(line: line)
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !began {
            began = true
            guard begin(firstBytes: bytes) else { return false }
        }
        received += bytes.count
        guard received <= maxBytes else {
            stop = .tooLarge
            return false
        }
        sink.receive(bytes)
        return true
    }

    func progress(downloaded: Int, expected: Int) -> Bool { true }

    /// Judges a response that had no body: a 200 is an empty document (for the parser to
    /// refuse), any other status but 304 is an error.
    func finish(transferred: Bool) {
        guard !began, stop == nil, transferred else { return }
        if headers.status == 200 {
            sink.begin(url: effectiveURL())
        } else if headers.status != 304 {
            stop = .httpStatus(headers.status)
        }
    }

    func info(finalURL: String) -> FeedFetchInfo {
        let permanent = !redirects.isEmpty && redirects.allSatisfy { $0 == 301 || $0 == 308 }
        return FeedFetchInfo(
            finalURL: finalURL, movedPermanentlyTo: permanent ? finalURL : nil, etag: headers["etag"],
            lastModified: headers["last-modified"], mediaType: headers.mediaType)
    }

    private func begin(firstBytes: UnsafeRawBufferPointer) -> Bool {
        guard headers.status == 200 else {
            // A 304 has no body; any other status is an error whose body is not the feed.
            if headers.status != 304 { stop = .httpStatus(headers.status) }
            return headers.status == 304
        }
        let type = headers.mediaType ?? ""
        let head = Array(firstBytes.prefix(AudioSniffer.windowSize))
        if type.hasPrefix("audio/") || type.hasPrefix("video/")
            || (!AudioSniffer.looksLikeMarkup(head) && AudioSniffer.verdict(head).isAudio)
        {
            stop = .audio
            return false
        }
        sink.begin(url: effectiveURL())
        return true
    }
}
