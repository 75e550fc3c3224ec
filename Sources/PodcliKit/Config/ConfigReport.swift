import EpisodeStore

/// The settings in effect and each feed section, as the file writes their values: what
/// `config list` prints (as lines, or as JSON).
public struct ConfigReport: Encodable, Sendable {
    public struct Section: Encodable, Sendable {
        public let name: String
        public let settings: [String: String]
    }

    /// Every setting in effect.
    public let settings: [String: String]
    public let feeds: [Section]

    public init(_ config: Config) {
        settings = Dictionary(uniqueKeysWithValues: Setting.allCases.map { ($0.rawValue, $0.value(in: config)) })
        feeds = config.feedSections.map { section in
            Section(
                name: section.name,
                settings: Dictionary(
                    section.assignments.map { ($0.setting.rawValue, $0.value) }, uniquingKeysWith: { $1 }))
        }
    }
}

extension ConfigFile.Target {
    /// The sections of `feed`, one of `feeds`: those whose NAME means it by `FeedReference`'s
    /// rule, whatever NAME they were written with; a new section is named by the feed's title.
    public init(for feed: Feed, among feeds: [Feed]) {
        self.init(name: feed.title) { name in (try? FeedReference.match(name, in: feeds))?.id == feed.id }
    }
}
