import EpisodeStore

/// podcli's configuration: the file's settings over the defaults.
///
/// The file (`$XDG_CONFIG_HOME/podcli/config`, or `config` under `--home`) holds `key = value`
/// lines, `#` comments and blank lines; settings before any section apply everywhere, and a
/// `[feed "NAME"]` section overrides the per-feed ones for the feed NAME names (its number, URL or
/// a unique part of its title: `FeedReference`). `Setting` lists every key.
public struct Config: Sendable {
    public var protection: Protection = .private
    public var device: String?
    public var skipBack = 15.0
    public var skipForward = 30.0
    public var sync = SyncSettings()
    public var directory = DirectorySettings()
    public var remote = RemoteSettings()
    /// The per-feed settings' global values.
    public var policy = EpisodePolicy()
    public var feedSections: [FeedSection] = []

    /// Reads `path`; a missing file is the defaults.
    /// - Throws: `PodcliError.config` naming the file and line of a bad key or value.
    public init(path: String) throws(PodcliError) {
        self = try ConfigFile(path: path).config()
    }

    public init() {}

    /// Each feed section with the feed its NAME means among `feeds` (`FeedReference`'s rule, as
    /// everywhere a feed is named), or why it means none.
    public func sections(among feeds: [Feed]) -> [(section: FeedSection, feed: Result<Feed, StoreError>)] {
        feedSections.map { section in
            (section, Result { () throws(StoreError) in try FeedReference.match(section.name, in: feeds) })
        }
    }

    /// Every feed's policy: the global one with the settings of the sections naming it over it,
    /// in the file's order.
    public func policies(of feeds: [Feed]) -> [Int: EpisodePolicy] {
        var policies = Dictionary(uniqueKeysWithValues: feeds.map { ($0.id, policy) })
        for (section, feed) in sections(among: feeds) {
            guard case .success(let feed) = feed else { continue }
            // Checked when the file was read.
            for assignment in section.assignments {
                try? assignment.setting.apply(assignment.value, to: &policies[feed.id, default: policy])
            }
        }
        return policies
    }

    /// The policy of `feed`, one of `feeds`.
    public func policy(for feed: Feed, among feeds: [Feed]) -> EpisodePolicy { policies(of: feeds)[feed.id] ?? policy }
}
