/// An episode podcli knows: where it comes from, where it is in its download life, how it is
/// protected on disk.
public struct Episode: Equatable, Sendable {
    public let id: Int
    public let uuid: String
    public let feedID: Int?
    public let title: String
    public let sourceURL: String
    public let state: EpisodeState
    public let protection: Protection
    /// ETag or Last-Modified of the partial download, sent back as If-Range when resuming.
    public let validator: String?
    /// Seconds since the epoch.
    public let createdAt: Int
    public let downloadedAt: Int?

    static let columns =
        "episodes.id, uuid, feed_id, title, source_url, state, episodes.protection, validator, created_at, downloaded_at"

    init(row: Row) {
        id = Int(row.int(0)!)
        uuid = row.string(1)!
        feedID = row.int(2).map(Int.init)
        title = row.string(3)!
        sourceURL = row.string(4)!
        state = EpisodeState(rawValue: row.string(5)!) ?? .failed
        protection = Protection(rawValue: row.string(6)!) ?? .private
        validator = row.string(7)
        createdAt = Int(row.int(8)!)
        downloadedAt = row.int(9).map(Int.init)
    }
}

/// Where an episode is in its download life.
public enum EpisodeState: String, Sendable, CaseIterable {
    case new, queued, downloading, downloaded, failed
}
