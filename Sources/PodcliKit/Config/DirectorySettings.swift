import PodcastDirectory

/// Where `podcli search` looks, and how `fetch` reads an Apple Podcasts link.
public struct DirectorySettings: Equatable, Sendable {
    /// The iTunes Search API's base URL.
    public var url = AppleDirectory.defaultURL
    public var podcastIndexURL = PodcastIndex.defaultURL
    /// Podcast Index is searched too when both are set.
    public var podcastIndexKey: String?
    /// A shell command whose first output line is Podcast Index's secret (never in the file).
    public var podcastIndexSecretCommand: String?
}
