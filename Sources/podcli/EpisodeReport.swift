import EpisodeStore
import Foundation

/// Everything `show` (and `list --json`) tells about an episode, as one value: rendered as JSON
/// for scripts and as aligned lines for people.
struct EpisodeReport: Encodable {
    let id: Int
    let uuid: String
    let title: String
    let state: String
    let url: String
    /// Absolute path of the downloaded file, or null.
    let path: String?
    let size: Int?
    let sha256: String?
    /// Octal string, e.g. "0600".
    let mode: String?
    let ownerUID: UInt32?
    let protection: String
    /// Seconds into the episode.
    let position: Double
    let played: Bool
    let createdAt: Int
    let downloadedAt: Int?
    let verifiedAt: Int?
    let lastError: String?

    enum CodingKeys: String, CodingKey {
        case id, uuid, title, state, url, path, size, sha256, mode, protection, position, played
        case ownerUID = "owner_uid"
        case createdAt = "created_at"
        case downloadedAt = "downloaded_at"
        case verifiedAt = "verified_at"
        case lastError = "last_error"
    }

    init(_ episode: Episode, in library: Library) throws {
        let file = try library.files(of: episode).first
        let playback = try library.playbackState(of: episode)
        id = episode.id
        uuid = episode.uuid
        title = episode.title
        state = episode.state.rawValue
        url = episode.sourceURL
        path = file.map(library.path(of:))
        size = file?.size
        sha256 = file?.sha256
        mode = file.map { octal($0.mode) }
        ownerUID = file?.ownerUID
        protection = episode.protection.rawValue
        position = Double(playback.positionMilliseconds) / 1000
        played = playback.played
        createdAt = episode.createdAt
        downloadedAt = episode.downloadedAt
        verifiedAt = file?.verifiedAt
        lastError = episode.state == .downloaded ? nil : try library.attempts(of: episode).last?.error
    }

    /// Aligned `key: value` lines for a terminal.
    var lines: [String] {
        var pairs: [(String, String)] = [
            ("ID", "\(id)"), ("UUID", uuid), ("Title", title), ("State", state), ("URL", url),
            ("Protection", protection),
        ]
        if let path { pairs.append(("Path", path)) }
        if let size { pairs.append(("Size", "\(Formatting.bytes(size)) (\(size) bytes)")) }
        if let sha256 { pairs.append(("SHA-256", sha256)) }
        if let mode, let ownerUID { pairs.append(("Mode", "\(mode), owner uid \(ownerUID)")) }
        pairs.append(("Position", played ? "played" : Formatting.duration(seconds: Int(position))))
        if let downloadedAt { pairs.append(("Downloaded", Formatting.time(downloadedAt))) }
        if let verifiedAt { pairs.append(("Verified", Formatting.time(verifiedAt))) }
        if let lastError { pairs.append(("Last error", lastError)) }
        let width = pairs.map(\.0.count).max() ?? 0
        return pairs.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
    }

    /// JSON with stable key order, one document.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
