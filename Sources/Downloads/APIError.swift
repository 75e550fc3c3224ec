import CCurl
import Strings

/// Why a web API's request failed, worded so a user can act on it. No case holds a password: a
/// URL is shown with `URLPassword`'s mask, and what the server said has the request's password
/// masked out.
public enum APIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not an http or https URL (or not a URL at all).
    case invalidURL(String)
    /// No connection: refused, no such host, no route, or no answer in time (libcurl's words).
    case unreachable(url: String, reason: String)
    /// The connection failed otherwise (TLS, cut short): libcurl's words.
    case network(url: String, message: String)
    /// A redirect pointed at a scheme podcli does not fetch (file://, ftp://, ...).
    case redirectRefused(from: String, to: String)
    case tooManyRedirects(url: String, limit: Int)
    /// 401 or 403: the user name or password is wrong, or the user may not do this.
    case unauthorized(status: Int, url: String, user: String?)
    /// Any other status past 2xx, with the first line of what the server said, if anything.
    case http(status: Int, url: String, detail: String?)
    /// The reply was longer than the request allows; nothing was kept.
    case replyTooLarge(url: String, limit: Int)
    /// The one who asked stopped it.
    case stopped(url: String)

    public var description: String {
        switch self {
        case .invalidURL(let url):
            return "'\(URLPassword.hidden(in: url))' is not an http or https URL"
        case .unreachable(let url, let reason):
            return "could not reach \(URLPassword.hidden(in: url)): \(reason)"
        case .network(let url, let message):
            return "the exchange with \(URLPassword.hidden(in: url)) failed: \(message)"
        case .redirectRefused(let from, let to):
            return "refused the redirect from \(URLPassword.hidden(in: from)) to \(URLPassword.hidden(in: to)): "
                + "podcli speaks only http and https"
        case .tooManyRedirects(let url, let limit):
            return "too many redirects (more than \(limit)) starting at \(URLPassword.hidden(in: url))"
        case .unauthorized(let status, let url, let user):
            let answer = "\(URLPassword.hidden(in: url)) answered \(status) \(HTTPStatus.reason(status))"
            guard let user else { return "\(answer): it wants a user name and password" }
            return status == 403
                ? "\(answer): user '\(user)' may not do this"
                : "\(answer): check the user name '\(user)' and its password"
        case .http(let status, let url, let detail):
            return "\(URLPassword.hidden(in: url)) answered \(status) \(HTTPStatus.reason(status))"
                + (detail.map { ": \($0)" } ?? "")
        case .replyTooLarge(let url, let limit):
            return "the reply of \(URLPassword.hidden(in: url)) is larger than \(Counted.noun(limit, "byte")), "
                + "more than podcli reads; nothing was kept"
        case .stopped(let url):
            return "the exchange with \(URLPassword.hidden(in: url)) was stopped"
        }
    }

    /// What a status past 2xx means: `.unauthorized` for 401 and 403, else `.http` with the first
    /// line of the body (printable, at most `detailLength` characters, `credentials`' password
    /// masked in case the server repeats it).
    static func refusal(status: Int, url: String, body: [UInt8], credentials: BasicCredentials?) -> APIError {
        if status == 401 || status == 403 { return .unauthorized(status: status, url: url, user: credentials?.user) }
        var line = String(decoding: body, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        if let password = credentials?.password, !password.isEmpty {
            line = line.replacing(password, with: URLPassword.mask)
        }
        line = PrintableText.line(line).trimmingWhitespace()
        if line.count > detailLength { line = String(line.prefix(detailLength - 1)) + "…" }
        return .http(status: status, url: url, detail: line.isEmpty ? nil : line)
    }

    static let detailLength = 200

    /// What a transfer that ended without an answer means, in libcurl's words.
    static func transport(_ result: Transfer.Result, url: String, policy: DownloadPolicy) -> APIError {
        switch result.code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT:
            return .unreachable(url: url, reason: result.unreachable?.description ?? result.message)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .redirectRefused(from: url, to: result.redirectURL ?? result.effectiveURL)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(url: url, limit: policy.maxRedirects)
        case CURLE_URL_MALFORMAT:
            return .invalidURL(url)
        default:
            return .network(url: url, message: result.message)
        }
    }
}
