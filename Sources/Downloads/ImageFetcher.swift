import CCurl
import Threads

/// Fetches an image (a podcast's or an episode's artwork) into memory: one GET on a curl handle
/// of its own, with `Transfer`'s rules (http and https only, TLS verified, timeouts), no retries
/// (artwork is never worth waiting for) and a size limit. Judging the bytes is for whoever
/// decodes them.
public final class ImageFetcher {
    /// Cover art is recommended at 3000 x 3000 px, a megabyte or two as a JPEG.
    public static let maximumBytes = 10 * 1024 * 1024

    private let policy: DownloadPolicy
    private let transfer: Transfer

    /// - Parameter stop: ends a fetch under way with `DownloadError.stopped` when signalled.
    public init(policy: DownloadPolicy, stop: StopEvent? = nil) {
        self.policy = policy
        transfer = Transfer(policy: policy, stop: stop)
    }

    /// The body of a 200 response to a GET of `url`.
    /// - Throws: `DownloadError`: `.invalidURL`, `.http` for any other status, `.imageTooLarge`
    ///   past `maximumBytes`, `.network` and the redirect errors as libcurl reports them, `.stopped`.
    public func fetch(_ url: String, maximumBytes: Int = maximumBytes) throws(DownloadError) -> [UInt8] {
        try transfer.fetchIntoMemory(
            url, maximumBytes: maximumBytes, acceptCompression: false, policy: policy,
            tooLarge: .imageTooLarge(url: url, limit: maximumBytes))
    }
}

extension Transfer {
    /// The body of a 200 response to one GET of `url`, kept in memory: an image, a chapters file.
    /// - Throws: `DownloadError`: `.invalidURL`, `.http` for any other status, `tooLarge` past
    ///   `maximumBytes`, `.network` and the redirect errors as libcurl reports them, `.stopped`.
    func fetchIntoMemory(
        _ url: String, maximumBytes: Int, acceptCompression: Bool, policy: DownloadPolicy, tooLarge: DownloadError
    ) throws(DownloadError) -> [UInt8] {
        try DownloadError.checkFetchable(url)
        let exchange = MemoryReply(maximumBytes: maximumBytes)
        let result = perform(Exchange(url: url, acceptCompression: acceptCompression), sink: exchange)
        if result.stopped { throw .stopped(url: url) }
        if exchange.tooLarge { throw tooLarge }
        let status = exchange.headers.status
        // A redirect that was not followed is libcurl's to explain (a refused scheme, a loop).
        if status >= 400 { throw .http(status: status, url: url, attempts: 1) }
        guard result.code == CURLE_OK else { throw try result.retryableError(url: url, policy: policy) }
        guard status == 200 else { throw .http(status: status, url: url, attempts: 1) }
        return exchange.body
    }
}

/// A response kept in memory, up to a limit: an image, a chapters file, an API's reply.
final class MemoryReply: TransferSink {
    private let maximumBytes: Int
    /// How much of an error's body is kept (what the server says went wrong); past it the
    /// transfer stops, since the status is the answer.
    private let errorBodyLimit: Int
    private(set) var headers = ResponseHeaders()
    private(set) var body: [UInt8] = []
    private(set) var tooLarge = false

    init(maximumBytes: Int, errorBodyLimit: Int = 0) {
        self.maximumBytes = maximumBytes
        self.errorBodyLimit = errorBodyLimit
    }

    /// A 2xx answer: its body is the reply.
    var succeeded: Bool { (200..<300).contains(headers.status) }

    func receiveHeader(_ line: String) { headers.take(line: line) }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard succeeded else {
            body += bytes.prefix(max(0, errorBodyLimit - body.count))
            return body.count < errorBodyLimit
        }
        guard body.count + bytes.count <= maximumBytes else {
            tooLarge = true
            return false
        }
        body += bytes
        return true
    }

    func progress(downloaded: Int, expected: Int) -> Bool {
        // A Content-Length past the limit is refused before its bytes arrive.
        if succeeded && expected > maximumBytes { tooLarge = true }
        return !tooLarge
    }
}
