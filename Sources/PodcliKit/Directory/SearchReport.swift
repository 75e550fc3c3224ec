import PodcastDirectory

/// One result of `podcli search --json`: its number for `fetch --result`, what the directory
/// says of it (dates as Unix seconds, as every podcli report), and whether it is followed.
public struct SearchReport: Encodable {
    let number: Int
    let title: String
    let author: String?
    let episodes: Int?
    let lastRelease: Int?
    let genre: String?
    let feedURL: String
    let directory: String
    let id: Int?
    let following: Bool

    public init(number: Int, podcast: DirectoryPodcast, following: Bool) {
        self.number = number
        title = podcast.title
        author = podcast.author
        episodes = podcast.episodeCount
        lastRelease = podcast.lastRelease.map { Int($0.timeIntervalSince1970) }
        genre = podcast.genre
        feedURL = podcast.feedURL
        directory = podcast.source.rawValue
        id = podcast.id
        self.following = following
    }

    enum CodingKeys: String, CodingKey {
        case number, title, author, episodes, genre, directory, id, following
        case lastRelease = "last_release"
        case feedURL = "feed_url"
    }
}
