/// A downloaded file of an episode, as it was when recorded: what `podcli verify` checks against.
public struct EpisodeFile: Equatable, Sendable {
    public let id: Int
    public let episodeID: Int
    /// Relative to the data directory, e.g. `episodes/<uuid>/episode.mp3`.
    public let relativePath: String
    public let size: Int
    /// Lowercase hexadecimal SHA-256 of the content.
    public let sha256: String
    /// Permission bits, e.g. 0o600.
    public let mode: UInt32
    public let ownerUID: UInt32
    public let protection: Protection
    public let contentType: String?
    public let recordedAt: Int
    public let verifiedAt: Int?

    static let columns =
        "id, episode_id, relative_path, size, sha256, mode, owner_uid, protection, content_type, recorded_at, verified_at"

    init(row: Row) {
        id = Int(row.int(0)!)
        episodeID = Int(row.int(1)!)
        relativePath = row.string(2)!
        size = Int(row.int(3)!)
        sha256 = row.string(4)!
        mode = UInt32(row.int(5)!)
        ownerUID = UInt32(row.int(6)!)
        protection = Protection(rawValue: row.string(7)!) ?? .private
        contentType = row.string(8)
        recordedAt = Int(row.int(9)!)
        verifiedAt = row.int(10).map(Int.init)
    }
}

/// Where the listener is in an episode.
public struct PlaybackState: Equatable, Sendable {
    public var positionMilliseconds: Int
    public var played: Bool

    public init(positionMilliseconds: Int, played: Bool) {
        self.positionMilliseconds = positionMilliseconds
        self.played = played
    }

    public static let start = PlaybackState(positionMilliseconds: 0, played: false)
}
