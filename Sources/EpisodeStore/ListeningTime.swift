/// Time spent on episodes, as the listening log keeps it (schema 13), in milliseconds.
///
/// `media` is the stretch of the episode played, silence skip silence left out included; `wall`
/// the device time it took. So `media − wall` is what speed and skip silence saved together:
/// `silenceSkipped` of it is skip silence's (media it left out), the rest (`savedBySpeed`) the
/// speed's, over what was played of that media. Skipped intros and outros were never played:
/// they are apart from `media`.
public struct ListeningTime: Equatable, Sendable {
    public var media = 0
    public var wall = 0
    public var silenceSkipped = 0
    public var introOutroSkipped = 0
    /// Times an episode was played to its end (or marked played while playing).
    public var finished = 0

    public init(media: Int = 0, wall: Int = 0, silenceSkipped: Int = 0, introOutroSkipped: Int = 0, finished: Int = 0) {
        self.media = media
        self.wall = wall
        self.silenceSkipped = silenceSkipped
        self.introOutroSkipped = introOutroSkipped
        self.finished = finished
    }

    public var isEmpty: Bool { self == ListeningTime() }

    /// What speed saved: the media played once skip silence's cuts are left out, less the wall
    /// time it took (never below 0: a save may count a cut whose media is not written yet).
    public var savedBySpeed: Int { max(0, media - silenceSkipped - wall) }

    /// Everything saved: speed, skip silence, skipped intros and outros.
    public var saved: Int { savedBySpeed + silenceSkipped + introOutroSkipped }

    public static func + (lhs: ListeningTime, rhs: ListeningTime) -> ListeningTime {
        ListeningTime(
            media: lhs.media + rhs.media, wall: lhs.wall + rhs.wall,
            silenceSkipped: lhs.silenceSkipped + rhs.silenceSkipped,
            introOutroSkipped: lhs.introOutroSkipped + rhs.introOutroSkipped, finished: lhs.finished + rhs.finished)
    }

    public static func - (lhs: ListeningTime, rhs: ListeningTime) -> ListeningTime {
        ListeningTime(
            media: lhs.media - rhs.media, wall: lhs.wall - rhs.wall,
            silenceSkipped: lhs.silenceSkipped - rhs.silenceSkipped,
            introOutroSkipped: lhs.introOutroSkipped - rhs.introOutroSkipped, finished: lhs.finished - rhs.finished)
    }
}

/// One feed's listening in `podcli stats`: `feedID` nil for episodes of no feed.
public struct FeedListening: Equatable, Sendable {
    public let feedID: Int?
    /// The feed's title now, or the one it had when last played (a feed unsubscribed from).
    public let title: String?
    public let time: ListeningTime
    /// Episodes played (in part or whole), counted once each; a deleted episode counts once per row.
    public let episodes: Int
}
