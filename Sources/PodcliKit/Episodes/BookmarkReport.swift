import EpisodeStore
import FoundationEssentials
import Terminal

/// A bookmark as `bookmarks` lists it and `bookmark` reports it: the episode, the time to play
/// from, the chapter and note, and the command that plays from there.
public struct BookmarkReport: Codable, Equatable, Sendable {
    public let id: Int
    /// nil once the episode was forgotten by an unsubscribe that kept its bookmarks.
    public let episodeID: Int?
    public let episode: String
    public let feed: String?
    public let url: String
    /// Seconds of media: the position heard when the bookmark was made.
    public let position: Double
    /// The position as `play --from` takes it (whole seconds, rounded down).
    public let from: String
    public let chapter: String?
    public let note: String?
    public let createdAt: Int
    /// `podcli play ID --from TIME`; for a forgotten episode, its audio URL instead of the ID.
    public let command: String

    public enum CodingKeys: String, CodingKey {
        case id, episode, feed, url, position, from, chapter, note, command
        case episodeID = "episode_id"
        case createdAt = "created_at"
    }

    public init(_ bookmark: Bookmark) {
        id = bookmark.id
        episodeID = bookmark.episodeID
        episode = bookmark.episodeTitle
        feed = bookmark.feedTitle
        url = bookmark.sourceURL
        position = Double(bookmark.positionMilliseconds) / 1000
        from = NowPlayingLine.clock(position)
        chapter = bookmark.chapter
        note = bookmark.note
        createdAt = bookmark.createdAt
        command = "podcli play \(episodeID.map(String.init) ?? Self.shellQuoted(url)) --from \(from)"
    }

    /// "3  #12 Show — Episode at 1:02 (Chapter): note".
    public var line: String { "\(id)  \(episodeName) \(moment)" }

    /// "#12 Show — Episode" (no number once the episode is forgotten).
    public var episodeName: String {
        (episodeID.map { "#\($0) " } ?? "") + (feed.map { "\($0) — " } ?? "") + episode
    }

    /// "at 1:02 (Chapter): note".
    public var moment: String {
        "at \(from)" + (chapter.map { " (\($0))" } ?? "") + (note.map { ": \($0)" } ?? "")
    }

    /// One line of JSON, as the player replies to `bookmark`.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// `text` as one word for a POSIX shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
