import FoundationEssentials

/// Podcast Index's answer to `search/byterm`, as its API documentation gives it: `status` ("true"
/// or "false"), `feeds`, `count`, `query` and `description`. Only the fields podcli shows are read.
struct PodcastIndexReply: Decodable {
    let status: String
    let feeds: [Feed]?
    let count: Int?
    let description: String?

    struct Feed: Decodable {
        let id: Int?
        let title: String?
        let url: String?
        let author: String?
        let episodeCount: Int?
        /// Unix seconds.
        let newestItemPubdate: Int?
        /// Category names by their number; null, or an empty array, when it has none.
        let categories: Categories?

        var podcast: DirectoryPodcast? {
            guard let url, DirectoryPodcast.isFeedURL(url) else { return nil }
            return DirectoryPodcast(
                source: .podcastIndex, id: id, title: title ?? "", author: author, episodeCount: episodeCount,
                lastRelease: newestItemPubdate.map { Date(timeIntervalSince1970: Double($0)) },
                genre: categories?.main, feedURL: url)
        }
    }

    /// `{"1": "Arts", "55": "News"}`; an empty set comes as `[]` from its PHP.
    struct Categories: Decodable {
        let names: [Int: String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let named = try? container.decode([String: String].self)
            names = Dictionary(
                (named ?? [:]).compactMap { key, name in Int(key).map { ($0, name) } }, uniquingKeysWith: { a, _ in a })
        }

        /// The lowest-numbered one: the top-level categories have the low numbers (1 Arts, 55 News).
        var main: String? { names.min { $0.key < $1.key }?.value }
    }
}
