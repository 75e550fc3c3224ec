/// One episode action as the gpodder.net API has it: what a device did with an episode, when.
public struct EpisodeAction: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case play, download, delete, new
    }

    /// The feed's URL.
    public var podcast: String
    /// The enclosure's URL.
    public var episode: String
    public var guid: String?
    public var kind: Kind
    /// Unix seconds, UTC.
    public var timestamp: Int
    /// For `play` only, in seconds of media time: where playing started, where it stopped, and
    /// the episode's length. Nil when unknown (`-1` on the wire).
    public var started: Int?
    public var position: Int?
    public var total: Int?
    /// The device that did it, as the server names it.
    public var device: String?

    public init(
        podcast: String, episode: String, guid: String? = nil, kind: Kind, timestamp: Int, started: Int? = nil,
        position: Int? = nil, total: Int? = nil, device: String? = nil
    ) {
        self.podcast = podcast
        self.episode = episode
        self.guid = guid
        self.kind = kind
        self.timestamp = timestamp
        self.started = started
        self.position = position
        self.total = total
        self.device = device
    }
}

/// The subscriptions added and removed on the server since a time, and the server's time to ask
/// from next.
public struct SubscriptionChanges: Sendable, Equatable {
    public var added: [String]
    public var removed: [String]
    public var timestamp: Int

    public init(added: [String], removed: [String], timestamp: Int) {
        self.added = added
        self.removed = removed
        self.timestamp = timestamp
    }
}

/// The episode actions on the server since a time, each once, oldest first as the server sent
/// them, and the time to ask from next.
public struct EpisodeActionChanges: Sendable, Equatable {
    public var actions: [EpisodeAction]
    public var timestamp: Int

    public init(actions: [EpisodeAction], timestamp: Int) {
        self.actions = actions
        self.timestamp = timestamp
    }
}

/// A URL the server changed on upload (`update_urls`): from now on it knows `from` as `to`.
public struct URLRewrite: Sendable, Equatable {
    public var from: String
    public var to: String

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

/// What the server said to an upload: its time, and the URLs it rewrote.
public struct UploadReceipt: Sendable, Equatable {
    /// The server's time of the (last) upload; 0 when there was nothing to send.
    public var timestamp: Int
    public var rewrites: [URLRewrite]

    public init(timestamp: Int, rewrites: [URLRewrite]) {
        self.timestamp = timestamp
        self.rewrites = rewrites
    }
}
