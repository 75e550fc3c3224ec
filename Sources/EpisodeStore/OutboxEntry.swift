/// One change a gpodder.net-API sync server has yet to learn (the outbox, schemas 14 and 15), named as
/// the server names feeds and episodes.
public struct OutboxEntry: Equatable, Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case subscribe, unsubscribe, play, download, delete
        /// Marked unplayed: heard from the start again (schema 15).
        case new
    }

    /// The entry's place in the outbox: changes are sent in this order.
    public let id: Int
    public let action: Action
    public let podcastURL: String
    /// The episode's enclosure URL; nil for a subscription change.
    public let episodeURL: String?
    public let guid: String?
    /// When the change was made (Unix seconds, the library's clock).
    public let timestamp: Int
    /// A play's span, in whole seconds of media; nil for other actions.
    public let play: PlaySpan?

    static let columns = "id, action, podcast_url, episode_url, guid, at, started, position, total"

    init(row: Row) {
        id = Int(row.int(0) ?? 0)
        action = Action(rawValue: row.string(1) ?? "") ?? .play
        podcastURL = row.string(2) ?? ""
        episodeURL = row.string(3)
        guid = row.string(4)
        timestamp = Int(row.int(5) ?? 0)
        play =
            action == .play
            ? PlaySpan(
                started: row.int(6).map(Int.init), position: row.int(7).map(Int.init), total: row.int(8).map(Int.init))
            : nil
    }
}

/// What a sync server learns of a listening session (a `play` action): where it began and where
/// it ended, and the episode's length, in whole seconds of media; nil when not known.
public struct PlaySpan: Equatable, Sendable {
    public var started: Int?
    public var position: Int?
    public var total: Int?

    public init(started: Int?, position: Int?, total: Int?) {
        self.started = started
        self.position = position
        self.total = total
    }
}
