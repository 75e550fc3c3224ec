import EpisodeStore
import GPodderSync
import Playback

/// A key of the configuration file. Everything about a key is its row in `definition`: the
/// values it takes, its help, whether a feed section may give it, how it is read from and
/// written into `Config`; its default is what `Config()` holds. Adding a key is a case and a row.
public enum Setting: String, CaseIterable, Sendable {
    case protection, device
    case skipBack = "skip-back"
    case skipForward = "skip-forward"
    case jobs
    case hostConnections = "host-connections"
    case diskBudget = "disk-budget"
    case minFree = "min-free"
    case limitRate = "limit-rate"
    case streamMaxSize = "stream-max-size"
    case streamMaxTime = "stream-max-time"
    case download, keep
    case maxAge = "max-age"
    case maxSize = "max-size"
    case deletePlayedAfter = "delete-played-after"
    case speed
    case skipSilence = "skip-silence"
    case loudness
    case skipIntro = "skip-intro"
    case skipOutro = "skip-outro"
    case directoryURL = "directory-url"
    case podcastIndexURL = "podcastindex-url"
    case podcastIndexKey = "podcastindex-key"
    case podcastIndexSecretCommand = "podcastindex-secret-command"
    case gpodderServer = "gpodder-server"
    case gpodderUser = "gpodder-user"
    case gpodderPasswordCommand = "gpodder-password-command"
    case gpodderDevice = "gpodder-device"
    case gpodderAPI = "gpodder-api"
    case gpodderLinkDevices = "gpodder-link-devices"
    case gpodderUnsubscribeFiles = "gpodder-unsubscribe-files"

    /// Given globally only, or also in a `[feed "NAME"]` section.
    public enum Scope: String, Sendable {
        case global
        case perFeed = "per feed"
    }

    /// A row of the settings table.
    public struct Definition: Sendable {
        /// The values it takes, for the man page: `private|open`, `SIZE|none`.
        public let type: String
        /// One line for `config list` and the man page.
        public let help: String
        /// Shown instead of the value `Config()` holds when that depends on the machine.
        let defaultText: String?
        let access: Access
    }

    /// Where the value lives: in `Config` for a global setting, in an `EpisodePolicy` (the
    /// global one, or a feed's) for a per-feed one.
    enum Access: Sendable {
        case global(
            read: @Sendable (Config) -> String,
            write: @Sendable (String, inout Config) throws(ConfigValue.Problem) -> Void)
        case perFeed(
            read: @Sendable (EpisodePolicy) -> String,
            write: @Sendable (String, inout EpisodePolicy) throws(ConfigValue.Problem) -> Void)
    }

    // The table. Global settings first, then the per-feed ones: what sync keeps (retention),
    // then how episodes sound.
    public var definition: Definition {
        switch self {
        case .protection:
            return .global("private|open", "protection class of new downloads: private (0600) or open (0644)") {
                $0.protection.rawValue
            } write: { value, config throws(ConfigValue.Problem) in
                guard let protection = Protection(rawValue: value) else { throw .init("private or open") }
                config.protection = protection
            }
        case .device:
            return .global("NAME", "ALSA device 'play' uses") {
                $0.device ?? "default"
            } write: { value, config throws(ConfigValue.Problem) in
                guard !value.isEmpty else { throw .init("a device name") }
                config.device = value
            }
        case .skipBack:
            return .global("SECONDS", "seconds the left arrow jumps back while playing") {
                ConfigValue.number($0.skipBack)
            } write: { value, config throws(ConfigValue.Problem) in
                config.skipBack = try Self.skip(value)
            }
        case .skipForward:
            return .global("SECONDS", "seconds the right arrow jumps forward while playing") {
                ConfigValue.number($0.skipForward)
            } write: { value, config throws(ConfigValue.Problem) in
                config.skipForward = try Self.skip(value)
            }
        case .jobs:
            return .global("1-32", "feeds refreshed and episodes downloaded at once by sync") {
                "\($0.sync.jobs)"
            } write: { value, config throws(ConfigValue.Problem) in
                config.sync.jobs = try ConfigValue.count(value, in: 1...32)
            }
        case .hostConnections:
            return .global("1-16", "feeds refreshed at once from one host") {
                "\($0.sync.hostConnections)"
            } write: { value, config throws(ConfigValue.Problem) in
                config.sync.hostConnections = try ConfigValue.count(value, in: 1...16)
            }
        case .diskBudget:
            return .global("SIZE|none", "most all downloaded episodes may take (none: no budget)") {
                $0.sync.diskBudget.map(ConfigValue.size) ?? "none"
            } write: { value, config throws(ConfigValue.Problem) in
                config.sync.diskBudget = try ConfigValue.optionalSize(value, off: "none")
            }
        case .minFree:
            return .global("SIZE", "free space sync leaves on the disk") {
                ConfigValue.size($0.sync.minFree)
            } write: { value, config throws(ConfigValue.Problem) in
                config.sync.minFree = try ConfigValue.size(value)
            }
        case .limitRate:
            return .global("SIZE|none", "bytes per second for all of sync's downloads together (none: no limit)") {
                $0.sync.limitRate.map(ConfigValue.size) ?? "none"
            } write: { value, config throws(ConfigValue.Problem) in
                config.sync.limitRate = try ConfigValue.optionalSize(value, off: "none")
                if let rate = config.sync.limitRate, rate < 1024 {
                    throw .init("a rate of at least 1K (bytes per second)")
                }
            }
        case .streamMaxSize:
            return .global("SIZE", "no download goes past this size (a live stream never ends)") {
                ConfigValue.size($0.sync.streamMaxSize)
            } write: { value, config throws(ConfigValue.Problem) in
                config.sync.streamMaxSize = try ConfigValue.size(value)
            }
        case .streamMaxTime:
            return .global("DURATION", "no download goes on longer than this") {
                ConfigValue.duration($0.sync.streamMaxTime)
            } write: { value, config throws(ConfigValue.Problem) in
                config.sync.streamMaxTime = try ConfigValue.duration(value)
            }
        case .download:
            return .perFeed("new|all|none", "what sync downloads: new, all (unplayed) or none") {
                $0.download.rawValue
            } write: { value, policy throws(ConfigValue.Problem) in
                guard let download = EpisodePolicy.Download(rawValue: value) else { throw .init("new, all or none") }
                policy.download = download
            }
        case .keep:
            return .perFeed("N|all", "keep the newest N episodes downloaded, delete older ones (all: keep every one)") {
                $0.keep.map { "\($0)" } ?? "all"
            } write: { value, policy throws(ConfigValue.Problem) in
                policy.keep = value == "all" ? nil : try ConfigValue.count(value, in: 1...100_000, or: "all")
            }
        case .maxAge:
            return .perFeed("DAYS|none", "do not download episodes published more than N days ago (none: any age)") {
                $0.maxAgeDays.map { "\($0)" } ?? "none"
            } write: { value, policy throws(ConfigValue.Problem) in
                policy.maxAgeDays = value == "none" ? nil : try ConfigValue.count(value, in: 1...100_000, or: "none")
            }
        case .maxSize:
            return .perFeed("SIZE|none", "do not download episodes larger than this (none: any size)") {
                $0.maxSize.map(ConfigValue.size) ?? "none"
            } write: { value, policy throws(ConfigValue.Problem) in
                policy.maxSize = try ConfigValue.optionalSize(value, off: "none")
            }
        case .deletePlayedAfter:
            return .perFeed("DAYS|never", "delete played episodes N days after they were played (never: keep them)") {
                $0.deletePlayedAfterDays.map { "\($0)" } ?? "never"
            } write: { value, policy throws(ConfigValue.Problem) in
                policy.deletePlayedAfterDays =
                    value == "never" ? nil : try ConfigValue.count(value, in: 0...100_000, or: "never")
            }
        case .speed:
            return .perFeed("0.5-3.0", "playing speed, pitch kept: 0.5 to 3.0 in steps of 0.05") {
                ConfigValue.number($0.listening.speed)
            } write: { value, policy throws(ConfigValue.Problem) in
                guard let speed = PlaybackSpeed.parse(value) else { throw .init("a speed from 0.5 to 3.0") }
                policy.listening.speed = speed
            }
        case .skipSilence:
            return .perFeed(
                "off|mild|medium|aggressive", "shorten silences while playing: off, mild, medium or aggressive"
            ) {
                $0.listening.skipSilence.rawValue
            } write: { value, policy throws(ConfigValue.Problem) in
                guard let level = SilenceSkipping(rawValue: value) else {
                    throw .init("off, mild, medium or aggressive")
                }
                policy.listening.skipSilence = level
            }
        case .loudness:
            return .perFeed("LUFS|off", "bring episodes to this loudness in LUFS, e.g. -16 (off: as published)") {
                $0.listening.loudness.description
            } write: { value, policy throws(ConfigValue.Problem) in
                guard let target = LoudnessTarget(value) else {
                    throw .init("a loudness from -40 to -5 (LUFS), or off")
                }
                policy.listening.loudness = target
            }
        case .skipIntro:
            return .perFeed("SECONDS", "seconds an episode played from its beginning starts past (0: none)") {
                "\($0.listening.skipIntro)"
            } write: { value, policy throws(ConfigValue.Problem) in
                policy.listening.skipIntro = try ConfigValue.count(value, in: 0...3600)
            }
        case .skipOutro:
            return .perFeed("SECONDS", "seconds before its end an episode ends, marked played (0: none)") {
                "\($0.listening.skipOutro)"
            } write: { value, policy throws(ConfigValue.Problem) in
                policy.listening.skipOutro = try ConfigValue.count(value, in: 0...3600)
            }
        case .directoryURL:
            return .global("URL", "where 'search' and Apple Podcasts links are looked up (the iTunes Search API)") {
                $0.directory.url
            } write: { value, config throws(ConfigValue.Problem) in
                config.directory.url = try ConfigValue.webURL(value)
            }
        case .podcastIndexURL:
            return .global("URL", "Podcast Index's API") {
                $0.directory.podcastIndexURL
            } write: { value, config throws(ConfigValue.Problem) in
                config.directory.podcastIndexURL = try ConfigValue.webURL(value)
            }
        case .podcastIndexKey:
            return .global("KEY|none", "Podcast Index's API key: 'search' asks it too (none: only Apple)") {
                $0.directory.podcastIndexKey ?? "none"
            } write: { value, config throws(ConfigValue.Problem) in
                guard !value.isEmpty else { throw .init("an API key, or none") }
                config.directory.podcastIndexKey = value == "none" ? nil : value
            }
        case .podcastIndexSecretCommand:
            return .global("COMMAND|none", "a command printing Podcast Index's API secret as its first line") {
                $0.directory.podcastIndexSecretCommand ?? "none"
            } write: { value, config throws(ConfigValue.Problem) in
                guard !value.isEmpty else { throw .init("a command, or none") }
                config.directory.podcastIndexSecretCommand = value == "none" ? nil : value
            }
        // An empty value is no setting: `config list` shows an unset one so.
        case .gpodderServer:
            return .global("URL|none", "the gpodder.net-API server sync exchanges subscriptions and positions with") {
                $0.remote.server ?? "none"
            } write: { value, config throws(ConfigValue.Problem) in
                guard value.isEmpty || value == "none" || RemoteSettings.isServerURL(value) else {
                    throw .init("an http or https URL without a user or password in it, or none")
                }
                config.remote.server = value.isEmpty || value == "none" ? nil : value
            }
        case .gpodderUser:
            return .global("NAME", "the user name on that server") {
                $0.remote.user ?? ""
            } write: { value, config throws(ConfigValue.Problem) in
                config.remote.user = value.isEmpty ? nil : value
            }
        case .gpodderPasswordCommand:
            return .global("COMMAND", "a shell command whose first line of output is the password") {
                $0.remote.passwordCommand ?? ""
            } write: { value, config throws(ConfigValue.Problem) in
                config.remote.passwordCommand = value.isEmpty ? nil : value
            }
        case .gpodderDevice:
            return .global(
                "ID", "this library's device id on the server (letters, digits, _ . -)", defaultText: "podcli-HOSTNAME"
            ) {
                $0.remote.deviceID
            } write: { value, config throws(ConfigValue.Problem) in
                guard value.isEmpty || RemoteSettings.isDeviceID(value) else {
                    throw .init("letters, digits, '_', '.' and '-'")
                }
                config.remote.device = value.isEmpty ? nil : value
            }
        case .gpodderAPI:
            return .global(
                "gpodder|nextcloud", "the server's API: gpodder (gpodder.net, mygpo) or nextcloud (gPodder Sync)"
            ) {
                $0.remote.api.rawValue
            } write: { value, config throws(ConfigValue.Problem) in
                guard let api = SyncDialect(rawValue: value) else { throw .init("gpodder or nextcloud") }
                config.remote.api = api
            }
        case .gpodderLinkDevices:
            return .global("on|off", "share subscriptions with the account's other devices: on or off") {
                $0.remote.linkDevices ? "on" : "off"
            } write: { value, config throws(ConfigValue.Problem) in
                guard value == "on" || value == "off" else { throw .init("on or off") }
                config.remote.linkDevices = value == "on"
            }
        case .gpodderUnsubscribeFiles:
            return .global("keep|delete", "an unsubscribe from the server keeps or deletes downloaded files") {
                $0.remote.unsubscribeFiles.rawValue
            } write: { value, config throws(ConfigValue.Problem) in
                guard let files = RemoteSettings.UnsubscribeFiles(rawValue: value) else {
                    throw .init("keep or delete")
                }
                config.remote.unsubscribeFiles = files
            }
        }
    }

    private static func skip(_ value: String) throws(ConfigValue.Problem) -> Double {
        guard let seconds = Double(value), seconds >= 1, seconds <= 3600 else {
            throw .init("seconds between 1 and 3600")
        }
        return seconds
    }

    public var scope: Scope {
        if case .perFeed = definition.access { return .perFeed }
        return .global
    }

    /// May be given in a `[feed "NAME"]` section.
    public var isPerFeed: Bool { scope == .perFeed }

    /// One line for `config list` and the man page.
    public var summary: String { definition.help }

    /// The default as the man page shows it.
    public var defaultValue: String { definition.defaultText ?? value(in: Config()) }

    /// The words of its type taken as they are written, for completion: `private|open` gives
    /// both, `SIZE|none` gives `none`, `1-32` and `NAME` none (a placeholder is in capitals).
    public var literalValues: [String] {
        definition.type.split(separator: "|").map(String.init).filter { word in
            word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) }
        }
    }

    /// The value in effect in `config`, for `feed`'s section when given, written as the file would.
    public func value(in config: Config, policy: EpisodePolicy? = nil) -> String {
        switch definition.access {
        case .global(let read, _): return read(config)
        case .perFeed(let read, _): return read(policy ?? config.policy)
        }
    }

    /// Sets this setting in `config` from `value` (a per-feed one: its global value).
    /// - Throws: what is wrong with the value, for a message that also names where it was given.
    public func apply(_ value: String, to config: inout Config) throws(ConfigValue.Problem) {
        switch definition.access {
        case .global(_, let write): try write(value, &config)
        case .perFeed(_, let write): try write(value, &config.policy)
        }
    }

    /// Checks `value` for this setting, given globally or in a feed section.
    public func check(_ value: String, inFeedSection: Bool) throws(ConfigValue.Problem) {
        if inFeedSection {
            var policy = EpisodePolicy()
            try apply(value, to: &policy)
        } else {
            var config = Config()
            try apply(value, to: &config)
        }
    }

    /// Sets this per-feed setting in `policy` from `value`.
    public func apply(_ value: String, to policy: inout EpisodePolicy) throws(ConfigValue.Problem) {
        guard case .perFeed(_, let write) = definition.access else {
            throw .init("a setting for every feed, not one feed (put it before any [feed] section)")
        }
        try write(value, &policy)
    }
}

extension Setting.Definition {
    static func global(
        _ type: String, _ help: String, defaultText: String? = nil, read: @escaping @Sendable (Config) -> String,
        write: @escaping @Sendable (String, inout Config) throws(ConfigValue.Problem) -> Void
    ) -> Self {
        Self(type: type, help: help, defaultText: defaultText, access: .global(read: read, write: write))
    }

    static func perFeed(
        _ type: String, _ help: String, read: @escaping @Sendable (EpisodePolicy) -> String,
        write: @escaping @Sendable (String, inout EpisodePolicy) throws(ConfigValue.Problem) -> Void
    ) -> Self {
        Self(type: type, help: help, defaultText: nil, access: .perFeed(read: read, write: write))
    }
}
