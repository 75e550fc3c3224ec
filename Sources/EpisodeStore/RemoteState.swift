/// Where this library stands with its sync server (schema 15, one row): the account the cursors
/// belong to, the server's timestamps the next exchange asks from, and how the last one went.
/// A different `account` resets the cursors (the caller's rule: the row only keeps them).
public struct RemoteState: Sendable, Equatable {
    /// "server user device dialect" the cursors belong to; nil before the first exchange.
    public var account: String?
    /// The server's timestamp of the last subscription changes read; 0 = never.
    public var subscriptionsSince: Int
    /// The server's timestamp of the last episode actions read; 0 = never.
    public var actionsSince: Int
    public var deviceRegistered: Bool
    public var devicesLinked: Bool
    /// Unix seconds of the last exchange that completed.
    public var lastExchange: Int?
    /// The last exchange's error, one line with no password, and when it happened.
    public var lastError: String?
    public var lastErrorAt: Int?

    public init(
        account: String? = nil, subscriptionsSince: Int = 0, actionsSince: Int = 0, deviceRegistered: Bool = false,
        devicesLinked: Bool = false, lastExchange: Int? = nil, lastError: String? = nil, lastErrorAt: Int? = nil
    ) {
        self.account = account
        self.subscriptionsSince = subscriptionsSince
        self.actionsSince = actionsSince
        self.deviceRegistered = deviceRegistered
        self.devicesLinked = devicesLinked
        self.lastExchange = lastExchange
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
    }
}

/// An episode action as a sync server gave it, named as the server names episodes.
public struct RemoteEpisodeAction: Sendable, Equatable {
    public enum Kind: String, Sendable { case play, download, delete, new }

    /// The feed's URL (the server's, without credentials).
    public var podcastURL: String
    /// The enclosure URL.
    public var episodeURL: String
    /// `episodeURL` without tracking prefixes or scheme (`TrackingPrefix.strip`, in Feeds), the
    /// key episodes are stored by (`EpisodeMetadata.mediaKey`): the same episode across trackers.
    public var mediaKey: String
    public var guid: String?
    public var kind: Kind
    /// Unix seconds, UTC.
    public var timestamp: Int
    /// A play's span in seconds of media; nil for the other kinds.
    public var play: PlaySpan?

    public init(
        podcastURL: String, episodeURL: String, mediaKey: String, guid: String?, kind: Kind, timestamp: Int,
        play: PlaySpan? = nil
    ) {
        self.podcastURL = podcastURL
        self.episodeURL = episodeURL
        self.mediaKey = mediaKey
        self.guid = guid
        self.kind = kind
        self.timestamp = timestamp
        self.play = play
    }
}

/// What `applyRemoteSubscriptions` did.
public struct RemoteSubscriptionSummary: Sendable, Equatable {
    /// Feeds subscribed, with no content yet: the next refresh (`Synchronizer`, every
    /// subscription) reads them, as a first read (only the newest episode new).
    public var added: [Feed] = []
    /// URLs unsubscribed.
    public var removed: [String] = []
    /// URLs left as they are: a pending opposite change in the outbox (the listener's newer
    /// intention), or an unsubscribe whose files another podcli is using.
    public var skipped: [String] = []

    public init() {}
}

/// What `mergeRemoteEpisodeActions` did, in episodes (one action each: the newest).
public struct RemoteMergeSummary: Sendable, Equatable {
    /// Marked played (a play within 30 s of its end).
    public var played = 0
    /// Given a newer position to resume from.
    public var positions = 0
    /// Marked unplayed at the start (`new`).
    public var unplayed = 0
    /// Left alone: the local state is as new or newer.
    public var notNewer = 0
    /// Actions of no episode in the library (or a play without a position).
    public var unmatched = 0
    /// Downloads and deletions on other devices: counted, not acted on.
    public var downloads = 0
    public var deletions = 0
    /// Outbox entries dropped as older than an action merged.
    public var outboxDropped = 0

    public init() {}
}
