/// An episode a sync downloaded, as the desktop notification names it.
public struct DownloadedEpisode: Codable, Equatable, Sendable {
    /// The episode's number (`podcli play ID`).
    public let id: Int
    public let title: String
    /// The podcast's title; nil for an episode fetched by its audio URL.
    public let podcast: String?

    public init(id: Int, title: String, podcast: String?) {
        self.id = id
        self.title = title
        self.podcast = podcast
    }
}
