import CCurl
import Strings
import Threads

/// The request methods an API is spoken with.
public enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
}

/// A user name and password for HTTP basic auth. The password is kept out of every text made of
/// this value (`description`, `dump`, a test's failure message): it goes to libcurl and nowhere else.
public struct BasicCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public let user: String
    public let password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "user '\(user)', password \(URLPassword.mask)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["user": user]) }
}

/// One request to a web API.
public struct APIRequest: Sendable {
    /// What an API reply may weigh unless the caller says otherwise: far more than a sync's answer
    /// (20,000 episode actions are about 5 MiB), far less than would hurt.
    public static let defaultMaximumReplyBytes = 32 * 1024 * 1024

    public var method: HTTPMethod
    /// An http or https URL, without credentials in it.
    public var url: String
    /// Header lines beyond those podcli sends ("Accept: application/json").
    public var headers: [String]
    /// A JSON document, sent with `Content-Type: application/json` (POST and PUT).
    public var jsonBody: [UInt8]?
    public var credentials: BasicCredentials?
    /// A longer reply body is refused (`APIError.replyTooLarge`).
    public var maximumReplyBytes: Int

    public init(
        _ method: HTTPMethod, _ url: String, headers: [String] = [], jsonBody: [UInt8]? = nil,
        credentials: BasicCredentials? = nil, maximumReplyBytes: Int = defaultMaximumReplyBytes
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.jsonBody = jsonBody
        self.credentials = credentials
        self.maximumReplyBytes = maximumReplyBytes
    }
}

/// A 2xx answer to an `APIRequest`, whole, in memory. Whether the body is what was expected (JSON
/// of some shape) is for the caller to judge.
public struct APIReply: Sendable {
    public let status: Int
    /// Where the answer came from, after redirects.
    public let url: String
    public let body: [UInt8]
    /// Header fields of the final response, by lowercased name (the last of a repeated one).
    public let headers: [String: String]

    /// The Content-Type without parameters, lowercased: "application/json".
    public var mediaType: String? {
        headers["content-type"].map {
            ($0.split(separator: ";", omittingEmptySubsequences: false).first ?? "").trimmingWhitespace().lowercased()
        }
    }

    /// Whether the server says the body is JSON (`application/json`, or a `+json` type).
    public var isJSON: Bool { mediaType.map { $0 == "application/json" || $0.hasSuffix("+json") } ?? false }
}

/// Speaks to a web API (a gpodder.net server): one request at a time on a curl handle of its own,
/// kept between requests (keep-alive), with `Transfer`'s rules — http and https only, also after a
/// redirect, TLS verified, bounded redirects, timeouts. No retries: a caller that keeps its changes
/// until the server took them tries again at its next run.
///
/// Not `Sendable`: a handle is used by one thread at a time.
public final class APIClient {
    /// How much of an error's body is kept for its message.
    static let errorBodyBytes = 1024

    private let policy: DownloadPolicy
    private let transfer: Transfer

    /// - Parameter stop: ends a request under way with `APIError.stopped` when signalled.
    public init(policy: DownloadPolicy, stop: StopEvent? = nil) {
        self.policy = policy
        transfer = Transfer(policy: policy, stop: stop)
    }

    /// Sends `request` and returns the server's 2xx answer.
    /// - Throws: `APIError`: `.unauthorized` for 401 and 403, `.http` for any other status past
    ///   2xx, `.replyTooLarge` past the request's limit, `.unreachable` and `.network` when no
    ///   answer came, the redirect errors, `.invalidURL`, `.stopped`.
    public func perform(_ request: APIRequest) throws(APIError) -> APIReply {
        let url = request.url
        do { try DownloadError.checkFetchable(url) } catch { throw .invalidURL(url) }
        var headers = request.headers
        // No "Expect: 100-continue" (libcurl's for a body over 1 MiB): a server that ignores it
        // would hold the body back a second.
        if request.jsonBody != nil { headers += ["Content-Type: application/json", "Expect:"] }
        let reply = MemoryReply(maximumBytes: request.maximumReplyBytes, errorBodyLimit: Self.errorBodyBytes)
        let result = transfer.perform(
            Transfer.Exchange(
                url: url, headers: headers, acceptCompression: true, method: request.method, body: request.jsonBody,
                credentials: request.credentials),
            sink: reply)
        if result.stopped { throw .stopped(url: url) }
        if reply.tooLarge { throw .replyTooLarge(url: url, limit: request.maximumReplyBytes) }
        let status = reply.headers.status
        // A status past 2xx is the answer, whatever became of its body. A redirect that was not
        // followed is libcurl's to explain (a refused scheme, a loop).
        if status >= 400 || (result.code == CURLE_OK && !reply.succeeded) {
            throw .refusal(status: status, url: url, body: reply.body, credentials: request.credentials)
        }
        guard result.code == CURLE_OK else { throw .transport(result, url: url, policy: policy) }
        return APIReply(status: status, url: result.effectiveURL, body: reply.body, headers: reply.headers.fields)
    }
}
