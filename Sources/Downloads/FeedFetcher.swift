import CCurl
import Foundation

/// A conditional GET of a feed into a file.
public struct FeedRequest: Sendable {
    public var url: String
    /// Validators from the last fetch, sent as If-None-Match / If-Modified-Since.
    public var etag: String?
    public var lastModified: String?
    /// Where the body is written (created or replaced, mode 0600).
    public var destination: String
    /// A body longer than this is refused.
    public var maxBytes: Int

    public init(url: String, etag: String? = nil, lastModified: String? = nil, destination: String, maxBytes: Int) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.destination = destination
        self.maxBytes = maxBytes
    }
}

/// How a feed fetch ended.
public enum FeedResponse: Equatable, Sendable {
    /// 200: the body is in the request's destination.
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
/// same retries as downloads. Owns one curl handle, reused across fetches (keep-alive).
public final class FeedFetcher {
    private let policy: DownloadPolicy
    private let transfer: Transfer

    public init(policy: DownloadPolicy) {
        self.policy = policy
        self.transfer = Transfer(policy: policy)
    }

    /// - Throws: `DownloadError` (`.feedTooLarge` past `maxBytes`). On failure the destination
    ///   holds nothing worth reading.
    public func fetch(_ request: FeedRequest) throws(DownloadError) -> FeedResponse {
        try DownloadError.checkFetchable(request.url)
        var attemptNumber = 0
        while true {
            attemptNumber += 1
            let exchange = FeedExchange(request: request)
            var headers: [String] = []
            if let etag = request.etag { headers.append("If-None-Match: \(etag)") }
            if let lastModified = request.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
            let result = transfer.perform(
                Transfer.Exchange(url: request.url, headers: headers, acceptCompression: true), sink: exchange)
            exchange.finish(transferred: result.code == CURLE_OK)
            let retryable: DownloadError
            switch exchange.stop {
            case .audio:
                return .audio(finalURL: result.effectiveURL)
            case .tooLarge:
                throw .feedTooLarge(url: request.url, limit: request.maxBytes)
            case .storage(let code):
                throw .storage(path: request.destination, errno: code)
            case .httpStatus(let status):
                let error = DownloadError.http(status: status, url: request.url, attempts: attemptNumber)
                guard status == 408 || status == 429 || status >= 500 else { throw error }
                retryable = error
            case nil:
                if result.code == CURLE_OK {
                    let info = exchange.info(finalURL: result.effectiveURL)
                    return exchange.headers.status == 304 ? .notModified(info) : .document(info)
                }
                retryable = try result.retryableError(url: request.url, policy: policy)
            }
            guard attemptNumber < policy.maxAttempts else { throw retryable.afterAttempts(attemptNumber) }
            let retryAfter = exchange.headers.retryAfter
            if let retryAfter, retryAfter > policy.maxRetryAfter {
                throw .retryTooLate(url: request.url, seconds: retryAfter)
            }
            Thread.sleep(forTimeInterval: retryAfter.map(Double.init) ?? policy.delay(beforeRetry: attemptNumber))
        }
    }
}

/// One exchange of a feed fetch: notes the redirect chain, decides at the first body byte whether
/// this is a feed worth keeping, and writes it.
final class FeedExchange: TransferSink {
    enum Stop: Equatable {
        case audio, tooLarge
        case httpStatus(Int)
        case storage(Int32)
    }

    private let request: FeedRequest
    private(set) var headers = ResponseHeaders()
    private(set) var stop: Stop?
    /// Statuses of the redirects before the final response.
    private var redirects: [Int] = []
    private var descriptor: Int32 = -1
    private var written = 0
    private var began = false

    init(request: FeedRequest) { self.request = request }

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
        guard written + bytes.count <= request.maxBytes else {
            stop = .tooLarge
            return false
        }
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                stop = .storage(errno)
                return false
            }
            offset += count
        }
        written += bytes.count
        return true
    }

    func progress(downloaded: Int, expected: Int) -> Bool { true }

    /// Closes the destination, and judges a response that had no body: a 200 still leaves an
    /// (empty) file for the parser to refuse, any status but 304 is an error.
    func finish(transferred: Bool) {
        if !began, stop == nil, transferred {
            if headers.status == 200 {
                _ = openDestination()
            } else if headers.status != 304 {
                stop = .httpStatus(headers.status)
            }
        }
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
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
            || (!AudioSniffer.looksLikeMarkup(head) && AudioSniffer.verdict(head) == .audio)
        {
            stop = .audio
            return false
        }
        return openDestination()
    }

    private func openDestination() -> Bool {
        descriptor = open(request.destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if descriptor < 0 { stop = .storage(errno) }
        return descriptor >= 0
    }
}
