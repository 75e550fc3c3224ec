import EpisodeStore

/// A setting as `config get|set|unset` names it: its key, checked, and the feed whose sections
/// are meant (by `FeedReference`'s rule, the one every command names feeds by), or none for the
/// whole library.
public struct SettingReference {
    public let setting: Setting
    /// The feed named, with the feeds it was found among (a section may name it by any of them).
    public let feed: (Feed, among: [Feed])?

    /// - Parameter feeds: the subscriptions, read only when a feed is named.
    /// - Throws: `PodcliError.unknownSetting`, `.notPerFeed` for a feed given a setting that is
    ///   not per feed, or `FeedReference`'s failure to name one feed.
    public init(key: String, feed name: String?, among feeds: () throws -> [Feed]) throws {
        guard let setting = Setting(rawValue: key) else { throw PodcliError.unknownSetting(key) }
        if name != nil && !setting.isPerFeed { throw PodcliError.notPerFeed(setting: key) }
        self.setting = setting
        feed = try name.map { name in
            let all = try feeds()
            return (try FeedReference.match(name, in: all), all)
        }
    }

    /// The value in effect: the feed's section's, else the file's, else the default.
    public func value(in config: Config) -> String {
        setting.value(in: config, policy: feed.map { config.policy(for: $0, among: $1) } ?? config.policy)
    }

    /// Sets it to `text` in `file` (which the caller writes).
    /// - Throws: `PodcliError.invalidSetting` for a value the setting cannot take there.
    public func set(to text: String, in file: inout ConfigFile) throws(PodcliError) {
        do throws(ConfigValue.Problem) {
            try setting.check(text, inFeedSection: feed != nil)
        } catch {
            throw .invalidSetting(setting: setting.rawValue, value: text, expected: error.expected)
        }
        file.set(setting, to: text, feed: target)
    }

    /// Removes it from `file`; false when the file did not set it.
    public func unset(in file: inout ConfigFile) -> Bool { file.unset(setting, feed: target) }

    private var target: ConfigFile.Target? { feed.map { ConfigFile.Target(for: $0, among: $1) } }
}
