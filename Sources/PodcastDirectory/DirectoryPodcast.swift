import FoundationEssentials

/// A podcast as a directory lists it: what `podcli search` shows of it, and the feed a
/// subscription fetches.
public struct DirectoryPodcast: Sendable, Equatable, Codable {
    /// The directory that listed it.
    public enum Source: String, Sendable, Codable {
        case apple
        case podcastIndex = "podcastindex"
    }

    public var source: Source
    /// The directory's number for it: Apple's collection id (the `idNNNN` of its links), or
    /// Podcast Index's feed id.
    public var id: Int?
    public var title: String
    public var author: String?
    public var episodeCount: Int?
    /// When its newest episode came out, as the directory last saw it.
    public var lastRelease: Date?
    public var genre: String?
    /// Always an http or https URL.
    public var feedURL: String

    public init(
        source: Source, id: Int?, title: String, author: String?, episodeCount: Int?, lastRelease: Date?,
        genre: String?, feedURL: String
    ) {
        self.source = source
        self.id = id
        self.title = title
        self.author = author
        self.episodeCount = episodeCount
        self.lastRelease = lastRelease
        self.genre = genre
        self.feedURL = feedURL
    }

    /// True when `url` could be fetched as a feed: http or https, with a host.
    static func isFeedURL(_ url: String) -> Bool {
        let lowered = url.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            return lowered.count > scheme.count
        }
        return false
    }
}

/// What one search found: the podcasts with a feed, and how many more results had none (Apple
/// lists podcasts only its app can play).
public struct DirectoryResults: Sendable, Equatable {
    public var podcasts: [DirectoryPodcast]
    public var withoutFeed: Int

    public init(podcasts: [DirectoryPodcast], withoutFeed: Int) {
        self.podcasts = podcasts
        self.withoutFeed = withoutFeed
    }
}
