/// An episode a sync downloaded, as the desktop notification names it.
struct DownloadedEpisode: Codable, Equatable, Sendable {
    /// The episode's number (`podcli play ID`).
    let id: Int
    let title: String
    /// The podcast's title; nil for an episode fetched by its audio URL.
    let podcast: String?
}
