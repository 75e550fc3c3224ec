import Digest
import Downloads
import FoundationEssentials
import Strings

/// Podcast Index's search (`search/byterm`), signed as its API documentation asks: every request
/// carries `X-Auth-Key`, `X-Auth-Date` (Unix seconds, within 5 minutes of the server's clock) and
/// `Authorization`, the hexadecimal SHA-1 of key, secret and that date; the User-Agent is
/// podcli's (`DownloadPolicy`).
public struct PodcastIndex {
    public static let name = "Podcast Index"
    public static let defaultURL = "https://api.podcastindex.org/api/1.0"
    /// The most feeds Podcast Index gives to one search.
    public static let maximumLimit = 1000

    public let baseURL: String
    public let key: String
    private let secret: String

    public init(baseURL: String = defaultURL, key: String, secret: String) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.key = key
        self.secret = secret
    }

    /// The header lines that sign a request made at `date`.
    func authorization(at date: Date) -> [String] {
        let seconds = String(Int(date.timeIntervalSince1970.rounded(.down)))
        return [
            "X-Auth-Key: \(key)", "X-Auth-Date: \(seconds)",
            "Authorization: \(SHA1.hex(of: Array((key + secret + seconds).utf8)))",
        ]
    }

    /// Podcasts whose title, author or owner matches `term`, at most `limit`.
    /// - Throws: `DirectoryError`: `.keyRefused`, the exchange's, a bad answer's, `.declined`,
    ///   `.nothingFound`.
    public func search(_ term: String, limit: Int, with client: APIClient, now: Date = Date())
        throws(DirectoryError) -> DirectoryResults
    {
        let count = min(max(limit, 1), Self.maximumLimit)
        let url = "\(baseURL)/search/byterm?q=\(term.addingPercentEscapesToAllButUnreserved())&max=\(count)"
        let request = APIRequest(
            .get, url, headers: ["Accept: application/json"] + authorization(at: now), maximumReplyBytes: 8 << 20)
        let reply = try DirectoryReply.fetch(request, from: Self.name, with: client, as: PodcastIndexReply.self)
        guard reply.status == "true" else {
            throw .declined(directory: Self.name, reason: reply.description ?? "status \(reply.status)")
        }
        let feeds = reply.feeds ?? []
        if let count = reply.count, count != feeds.count {
            throw .inconsistentCount(url: url, said: count, held: feeds.count)
        }
        let podcasts = feeds.compactMap(\.podcast)
        guard !podcasts.isEmpty else { throw .nothingFound(term: term, withoutFeed: feeds.count) }
        return DirectoryResults(podcasts: podcasts, withoutFeed: feeds.count - podcasts.count)
    }
}
