import Downloads
import Strings

/// The iTunes Search API (no key): podcasts by words (`/search`), and one podcast by its id
/// (`/lookup`), the id of an Apple Podcasts link.
public struct AppleDirectory {
    public static let name = "Apple Podcasts"
    public static let defaultURL = "https://itunes.apple.com"
    /// The most results Apple gives to one search.
    public static let maximumLimit = 200

    /// Where the API answers (`https://itunes.apple.com`), without the trailing "/".
    public let baseURL: String

    public init(baseURL: String = defaultURL) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// Podcasts whose title or author matches `term`, at most `limit`.
    /// - Throws: `DirectoryError`: the exchange's, a bad answer's, `.nothingFound`.
    public func search(_ term: String, limit: Int, with client: APIClient) throws(DirectoryError) -> DirectoryResults {
        let url =
            "\(baseURL)/search?media=podcast&entity=podcast&term=\(term.addingPercentEscapesToAllButUnreserved())"
            + "&limit=\(min(max(limit, 1), Self.maximumLimit))"
        let results = try ask(url, with: client)
        let podcasts = results.compactMap(\.podcast)
        guard !podcasts.isEmpty else { throw .nothingFound(term: term, withoutFeed: results.count) }
        return DirectoryResults(podcasts: podcasts, withoutFeed: results.count - podcasts.count)
    }

    /// The podcast with Apple's id `id`.
    /// - Throws: `DirectoryError`: the exchange's, a bad answer's, `.unknownID`, `.noFeed`.
    public func lookup(id: Int, with client: APIClient) throws(DirectoryError) -> DirectoryPodcast {
        let results = try ask("\(baseURL)/lookup?id=\(id)", with: client)
        guard let result = results.first(where: { $0.id == id }) ?? results.first else { throw .unknownID(id) }
        guard let podcast = result.podcast else { throw .noFeed(id: id, title: result.title) }
        return podcast
    }

    private func ask(_ url: String, with client: APIClient) throws(DirectoryError) -> [ITunesReply.Result] {
        let request = APIRequest(.get, url, headers: ["Accept: application/json"], maximumReplyBytes: 4 << 20)
        let reply = try DirectoryReply.fetch(request, from: Self.name, with: client, as: ITunesReply.self)
        guard reply.resultCount == reply.results.count else {
            throw .inconsistentCount(url: url, said: reply.resultCount, held: reply.results.count)
        }
        return reply.results
    }
}
