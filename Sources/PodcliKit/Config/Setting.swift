import EpisodeStore
import GPodderSync
import Playback

/// A key of the configuration file: what it means, its default, how its value is read.
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

    /// May be given in a `[feed "NAME"]` section.
    public var isPerFeed: Bool {
        switch self {
        case .download, .keep, .maxAge, .maxSize, .deletePlayedAfter, .speed, .skipSilence, .loudness, .skipIntro,
            .skipOutro:
            return true
        default: return false
        }
    }

    /// One line for `config list` and the README.
    public var summary: String {
        switch self {
        case .protection: return "protection class of new downloads: private (0600) or open (0644)"
        case .device: return "ALSA device 'play' uses"
        case .skipBack: return "seconds the left arrow jumps back while playing"
        case .skipForward: return "seconds the right arrow jumps forward while playing"
        case .jobs: return "feeds refreshed and episodes downloaded at once by sync"
        case .hostConnections: return "feeds refreshed at once from one host"
        case .diskBudget: return "most all downloaded episodes may take (none: no budget)"
        case .minFree: return "free space sync leaves on the disk"
        case .limitRate: return "bytes per second for all of sync's downloads together (none: no limit)"
        case .streamMaxSize: return "no download goes past this size (a live stream never ends)"
        case .streamMaxTime: return "no download goes on longer than this"
        case .download: return "what sync downloads: new, all (unplayed) or none"
        case .keep: return "keep the newest N episodes downloaded, delete older ones (all: keep every one)"
        case .maxAge: return "do not download episodes published more than N days ago (none: any age)"
        case .maxSize: return "do not download episodes larger than this (none: any size)"
        case .deletePlayedAfter: return "delete played episodes N days after they were played (never: keep them)"
        case .speed: return "playing speed, pitch kept: 0.5 to 3.0 in steps of 0.05"
        case .skipSilence: return "shorten silences while playing: off, mild, medium or aggressive"
        case .loudness: return "bring episodes to this loudness in LUFS, e.g. -16 (off: as published)"
        case .skipIntro: return "seconds an episode played from its beginning starts past (0: none)"
        case .skipOutro: return "seconds before its end an episode ends, marked played (0: none)"
        case .directoryURL: return "where 'search' and Apple Podcasts links are looked up (the iTunes Search API)"
        case .podcastIndexURL: return "Podcast Index's API"
        case .podcastIndexKey: return "Podcast Index's API key: 'search' asks it too (none: only Apple)"
        case .podcastIndexSecretCommand: return "a command printing Podcast Index's API secret as its first line"
        case .gpodderServer: return "the gpodder.net-API server sync exchanges subscriptions and positions with"
        case .gpodderUser: return "the user name on that server"
        case .gpodderPasswordCommand: return "a shell command whose first line of output is the password"
        case .gpodderDevice: return "this library's device id on the server (letters, digits, _ . -)"
        case .gpodderAPI: return "the server's API: gpodder (gpodder.net, mygpo) or nextcloud (gPodder Sync)"
        case .gpodderLinkDevices: return "share subscriptions with the account's other devices: on or off"
        case .gpodderUnsubscribeFiles: return "an unsubscribe from the server keeps or deletes downloaded files"
        }
    }

    /// The value in effect in `config`, for `feed`'s section when given, written as the file would.
    public func value(in config: Config, policy: EpisodePolicy? = nil) -> String {
        let policy = policy ?? config.policy
        switch self {
        case .protection: return config.protection.rawValue
        case .device: return config.device ?? "default"
        case .skipBack: return ConfigValue.number(config.skipBack)
        case .skipForward: return ConfigValue.number(config.skipForward)
        case .jobs: return "\(config.sync.jobs)"
        case .hostConnections: return "\(config.sync.hostConnections)"
        case .diskBudget: return config.sync.diskBudget.map(ConfigValue.size) ?? "none"
        case .minFree: return ConfigValue.size(config.sync.minFree)
        case .limitRate: return config.sync.limitRate.map(ConfigValue.size) ?? "none"
        case .streamMaxSize: return ConfigValue.size(config.sync.streamMaxSize)
        case .streamMaxTime: return ConfigValue.duration(config.sync.streamMaxTime)
        case .download: return policy.download.rawValue
        case .keep: return policy.keep.map { "\($0)" } ?? "all"
        case .maxAge: return policy.maxAgeDays.map { "\($0)" } ?? "none"
        case .maxSize: return policy.maxSize.map(ConfigValue.size) ?? "none"
        case .deletePlayedAfter: return policy.deletePlayedAfterDays.map { "\($0)" } ?? "never"
        case .speed: return ConfigValue.number(policy.listening.speed)
        case .skipSilence: return policy.listening.skipSilence.rawValue
        case .loudness: return policy.listening.loudness.description
        case .skipIntro: return "\(policy.listening.skipIntro)"
        case .skipOutro: return "\(policy.listening.skipOutro)"
        case .directoryURL: return config.directory.url
        case .podcastIndexURL: return config.directory.podcastIndexURL
        case .podcastIndexKey: return config.directory.podcastIndexKey ?? "none"
        case .podcastIndexSecretCommand: return config.directory.podcastIndexSecretCommand ?? "none"
        case .gpodderServer: return config.remote.server ?? "none"
        case .gpodderUser: return config.remote.user ?? ""
        case .gpodderPasswordCommand: return config.remote.passwordCommand ?? ""
        case .gpodderDevice: return config.remote.deviceID
        case .gpodderAPI: return config.remote.api.rawValue
        case .gpodderLinkDevices: return config.remote.linkDevices ? "on" : "off"
        case .gpodderUnsubscribeFiles: return config.remote.unsubscribeFiles.rawValue
        }
    }

    /// Sets this global setting in `config` from `value`.
    /// - Throws: what is wrong with the value, for a message that also names where it was given.
    public func apply(_ value: String, to config: inout Config) throws(ConfigValue.Problem) {
        switch self {
        case .protection:
            guard let protection = Protection(rawValue: value) else { throw .init("private or open") }
            config.protection = protection
        case .device:
            guard !value.isEmpty else { throw .init("a device name") }
            config.device = value
        case .skipBack, .skipForward:
            guard let seconds = Double(value), seconds >= 1, seconds <= 3600 else {
                throw .init("seconds between 1 and 3600")
            }
            if self == .skipBack { config.skipBack = seconds } else { config.skipForward = seconds }
        case .jobs: config.sync.jobs = try ConfigValue.count(value, in: 1...32)
        case .hostConnections: config.sync.hostConnections = try ConfigValue.count(value, in: 1...16)
        case .diskBudget: config.sync.diskBudget = try ConfigValue.optionalSize(value, off: "none")
        case .minFree: config.sync.minFree = try ConfigValue.size(value)
        case .limitRate:
            config.sync.limitRate = try ConfigValue.optionalSize(value, off: "none")
            if let rate = config.sync.limitRate, rate < 1024 { throw .init("a rate of at least 1K (bytes per second)") }
        case .streamMaxSize: config.sync.streamMaxSize = try ConfigValue.size(value)
        case .streamMaxTime: config.sync.streamMaxTime = try ConfigValue.duration(value)
        case .directoryURL: config.directory.url = try ConfigValue.webURL(value)
        case .podcastIndexURL: config.directory.podcastIndexURL = try ConfigValue.webURL(value)
        case .podcastIndexKey:
            guard !value.isEmpty else { throw .init("an API key, or none") }
            config.directory.podcastIndexKey = value == "none" ? nil : value
        case .podcastIndexSecretCommand:
            guard !value.isEmpty else { throw .init("a command, or none") }
            config.directory.podcastIndexSecretCommand = value == "none" ? nil : value
        case .download, .keep, .maxAge, .maxSize, .deletePlayedAfter, .speed, .skipSilence, .loudness, .skipIntro,
            .skipOutro:
            try apply(value, to: &config.policy)
        // An empty value is no setting: `config list` shows an unset one so.
        case .gpodderServer:
            guard value.isEmpty || value == "none" || RemoteSettings.isServerURL(value) else {
                throw .init("an http or https URL without a user or password in it, or none")
            }
            config.remote.server = value.isEmpty || value == "none" ? nil : value
        case .gpodderUser: config.remote.user = value.isEmpty ? nil : value
        case .gpodderPasswordCommand: config.remote.passwordCommand = value.isEmpty ? nil : value
        case .gpodderDevice:
            guard value.isEmpty || RemoteSettings.isDeviceID(value) else {
                throw .init("letters, digits, '_', '.' and '-'")
            }
            config.remote.device = value.isEmpty ? nil : value
        case .gpodderAPI:
            guard let api = SyncDialect(rawValue: value) else { throw .init("gpodder or nextcloud") }
            config.remote.api = api
        case .gpodderLinkDevices:
            guard value == "on" || value == "off" else { throw .init("on or off") }
            config.remote.linkDevices = value == "on"
        case .gpodderUnsubscribeFiles:
            guard let files = RemoteSettings.UnsubscribeFiles(rawValue: value) else { throw .init("keep or delete") }
            config.remote.unsubscribeFiles = files
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
        switch self {
        case .download:
            guard let download = EpisodePolicy.Download(rawValue: value) else { throw .init("new, all or none") }
            policy.download = download
        case .keep:
            policy.keep = value == "all" ? nil : try ConfigValue.count(value, in: 1...100_000, or: "all")
        case .maxAge:
            policy.maxAgeDays = value == "none" ? nil : try ConfigValue.count(value, in: 1...100_000, or: "none")
        case .maxSize: policy.maxSize = try ConfigValue.optionalSize(value, off: "none")
        case .deletePlayedAfter:
            policy.deletePlayedAfterDays =
                value == "never" ? nil : try ConfigValue.count(value, in: 0...100_000, or: "never")
        case .speed:
            guard let speed = PlaybackSpeed.parse(value) else { throw .init("a speed from 0.5 to 3.0") }
            policy.listening.speed = speed
        case .skipSilence:
            guard let level = SilenceSkipping(rawValue: value) else { throw .init("off, mild, medium or aggressive") }
            policy.listening.skipSilence = level
        case .loudness:
            guard let target = LoudnessTarget(value) else { throw .init("a loudness from -40 to -5 (LUFS), or off") }
            policy.listening.loudness = target
        case .skipIntro: policy.listening.skipIntro = try ConfigValue.count(value, in: 0...3600)
        case .skipOutro: policy.listening.skipOutro = try ConfigValue.count(value, in: 0...3600)
        default:
            throw .init("a setting for every feed, not one feed (put it before any [feed] section)")
        }
    }
}
