import FoundationEssentials

/// The iTunes Search and Lookup APIs' answer, as Apple documents it ("Understanding Search
/// Results"): `resultCount` and `results`, each result a flat object. Only the fields podcli shows
/// are read; any of them may be missing.
struct ITunesReply: Decodable {
    let resultCount: Int
    let results: [Result]

    struct Result: Decodable {
        let kind: String?
        let collectionId: Int?
        let trackId: Int?
        let collectionName: String?
        let trackName: String?
        let artistName: String?
        let trackCount: Int?
        /// ISO 8601: "2024-05-09T09:45:00Z".
        let releaseDate: String?
        let primaryGenreName: String?
        let feedUrl: String?

        var id: Int? { collectionId ?? trackId }
        var title: String { collectionName ?? trackName ?? "" }

        /// The podcast, or nil when it has no feed to fetch.
        var podcast: DirectoryPodcast? {
            guard let feedUrl, DirectoryPodcast.isFeedURL(feedUrl) else { return nil }
            return DirectoryPodcast(
                source: .apple, id: id, title: title, author: artistName, episodeCount: trackCount,
                lastRelease: releaseDate.flatMap { try? Date($0, strategy: .iso8601) }, genre: primaryGenreName,
                feedURL: feedUrl)
        }
    }
}
