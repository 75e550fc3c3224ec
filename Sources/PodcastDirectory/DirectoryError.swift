import Downloads
import Strings

/// Why a directory gave no podcast, worded so a user can act on it.
public enum DirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The exchange failed (unreachable, refused, a status past 2xx): `APIError` says how.
    case exchange(directory: String, APIError)
    /// Podcast Index refused the key and its signature (401 or 403).
    case keyRefused(status: Int)
    /// A directory that wants no key refused (401 or 403): it blocks this address or podcli.
    case refused(directory: String, status: Int, url: String)
    /// The answer was an HTML page, not the directory's JSON.
    case htmlPage(url: String)
    /// The answer was not JSON of the directory's documented shape.
    case unreadable(url: String, detail: String)
    /// The answer counts its results differently from the results it holds.
    case inconsistentCount(url: String, said: Int, held: Int)
    /// The directory said the request failed (Podcast Index's `status` "false").
    case declined(directory: String, reason: String)
    /// No podcast with a feed matches; `withoutFeed` results matched but have none.
    case nothingFound(term: String, withoutFeed: Int)
    /// No podcast has this Apple id.
    case unknownID(Int)
    /// Apple lists the podcast but no feed for it: Apple's app alone plays it.
    case noFeed(id: Int, title: String)

    public var description: String {
        switch self {
        case .exchange(let directory, let error):
            return "\(directory): \(error)"
        case .keyRefused(let status):
            return "Podcast Index refused the key (\(status)): check podcastindex-key and that "
                + "podcastindex-secret-command prints its secret"
        case .refused(let directory, let status, let url):
            return "\(directory) refused the search (\(status) \(HTTPStatus.reason(status))) at "
                + "\(URLPassword.hidden(in: url)): try again later, or check directory-url"
        case .htmlPage(let url):
            return "\(URLPassword.hidden(in: url)) sent an HTML page, not a directory's answer: "
                + "check directory-url (perhaps a captive portal or login page)"
        case .unreadable(let url, let detail):
            return "\(URLPassword.hidden(in: url)) did not answer as a podcast directory does (\(detail)): "
                + "check directory-url"
        case .inconsistentCount(let url, let said, let held):
            return "\(URLPassword.hidden(in: url)) counted \(Counted.noun(said, "result")) but sent \(held): "
                + "the answer is damaged, try again"
        case .declined(let directory, let reason):
            return "\(directory) declined the search: \(PrintableText.line(reason))"
        case .nothingFound(let term, let withoutFeed):
            let quoted = "'\(PrintableText.line(term))'"
            guard withoutFeed > 0 else { return "no podcast matches \(quoted): try other words" }
            return "no podcast matching \(quoted) has a feed (\(Counted.noun(withoutFeed, "result")) "
                + "\(withoutFeed == 1 ? "plays" : "play") in Apple's app only)"
        case .unknownID(let id):
            return "Apple knows no podcast id\(id): check the link"
        case .noFeed(let id, let title):
            return "Apple lists '\(PrintableText.line(title))' (id\(id)) without a feed: "
                + "it plays in Apple's app only"
        }
    }
}
