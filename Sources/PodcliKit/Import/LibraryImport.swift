import EpisodeStore

/// Records another app's library in podcli's, with no fetch: the feeds and episodes as the file
/// gives them (the next `sync` refreshes them), then what the listener did. It adds, never
/// deletes or overwrites: a feed already subscribed is left as it is (its episodes found by guid,
/// then audio URL), a position or played mark only goes to an episode podcli has not played, a
/// setting only into a feed section that does not give it. So a second import changes nothing.
public struct LibraryImport {
    public let library: Library
    public let protection: Protection

    public init(library: Library, protection: Protection) {
        self.library = library
        self.protection = protection
    }

    /// What an import recorded, for its summary line.
    public struct Summary: Equatable, Sendable {
        public var feeds = 0
        public var episodes = 0
        public var played = 0
        public var positions = 0
        public var queued = 0
        public var starred = 0
        public var settings = 0
        /// Episodes of a feed already subscribed that podcli's copy of the feed does not hold.
        public var episodesNotFound = 0
        public var skipped = ForeignLibrary.Skipped()

        public init() {}
    }

    /// Records `foreign` in one transaction: it all happens or none of it.
    /// - Returns: the summary, and the subscriptions each imported feed became, for the settings.
    public func record(_ foreign: ForeignLibrary) throws -> (Summary, [(Feed, ImportedFeed)]) {
        var summary = Summary()
        summary.skipped = foreign.skipped
        var recorded: [(Feed, ImportedFeed)] = []
        try library.database.inTransaction { () throws(StoreError) in
            for imported in foreign.feeds {
                if let feed = try library.feed(url: imported.url) {
                    recorded.append((feed, imported))
                    continue
                }
                let (feed, merge) = try library.subscribe(
                    url: imported.url, metadata: imported.metadata, episodes: imported.episodes.map(\.metadata),
                    etag: nil, lastModified: nil, protection: protection)
                summary.feeds += 1
                summary.episodes += merge.added
                recorded.append((feed, imported))
            }
            try recordListening(recorded, into: &summary)
            return .commit
        }
        return (summary, recorded)
    }

    /// Played marks, positions, stars and the queue, on the episodes each imported one is.
    private func recordListening(_ recorded: [(Feed, ImportedFeed)], into summary: inout Summary) throws(StoreError) {
        // Only the imported feeds' episodes: an import into a library of a million costs its own size.
        var byGUID: [Int: [String: Episode]] = [:]
        var byURL: [Int: [String: Episode]] = [:]
        for feedID in Set(recorded.map(\.0.id)) {
            for episode in try library.episodes(ofFeed: feedID) {
                if let guid = episode.guid { byGUID[feedID, default: [:]][guid] = episode }
                byURL[feedID, default: [:]][episode.sourceURL] = episode
            }
        }
        var starred: [Episode] = []
        var queued: [(place: Int64, episode: Episode)] = []
        for (feed, imported) in recorded {
            for item in imported.episodes {
                guard
                    let episode = item.metadata.guid.flatMap({ byGUID[feed.id]?[$0] })
                        ?? byURL[feed.id]?[item.metadata.sourceURL]
                else {
                    summary.episodesNotFound += 1
                    continue
                }
                try recordPlayback(item, of: episode, into: &summary)
                if item.starred { starred.append(episode) }
                if let place = item.queuePlace { queued.append((place, episode)) }
            }
        }
        summary.starred = try library.setStarred(true, of: starred).count
        summary.queued = try library.enqueue(queued.sorted { $0.place < $1.place }.map(\.episode))
    }

    /// The app's state, unless podcli's own says more or is newer (`Library.importPlayback`).
    private func recordPlayback(_ item: ImportedEpisode, of episode: Episode, into summary: inout Summary)
        throws(StoreError)
    {
        guard item.state != .start, try library.importPlayback(item.state, of: episode, lastPlayed: item.lastPlayed)
        else { return }
        if item.state.played { summary.played += 1 } else { summary.positions += 1 }
    }
}

extension LibraryImport {
    /// Writes each feed's settings into `file` where no section of the feed gives them already.
    /// A new section is named by the feed's title, or its number when the title names another
    /// feed too (two feeds of one title).
    /// - Returns: how many were written (the caller writes the file when any was).
    public static func addSettings(
        of recorded: [(Feed, ImportedFeed)], among feeds: [Feed], to file: inout ConfigFile, config: Config
    ) -> Int {
        let names = SectionNames(feeds)
        var written = 0
        for (feed, imported) in recorded where !imported.settings.isEmpty {
            let name = names.feedID(named: feed.title) == feed.id ? feed.title : "\(feed.id)"
            let target = ConfigFile.Target(name: name) { names.feedID(named: $0) == feed.id }
            let given = Set(
                config.feedSections.filter { target.isNamed($0.name) }.flatMap { $0.assignments.map(\.setting) })
            for (setting, value) in imported.settings where !given.contains(setting) {
                file.set(setting, to: value, feed: target)
                written += 1
            }
        }
        return written
    }

    /// The feed each section name means, by `FeedReference`'s rule, looked up once a name: an
    /// import of hundreds of feeds asks for every section with every setting it adds.
    private final class SectionNames {
        let feeds: [Feed]
        var found: [String: Int?] = [:]

        init(_ feeds: [Feed]) { self.feeds = feeds }

        func feedID(named name: String) -> Int? {
            if let known = found[name] { return known }
            let id = (try? FeedReference.match(name, in: feeds))?.id
            found[name] = id
            return id
        }
    }
}

extension LibraryImport.Summary {
    /// The one line an import ends with: what was recorded, then what could not be.
    public var line: String {
        var line =
            "imported \(Formatting.count(feeds, "feed")), \(Formatting.count(episodes, "episode")) "
            + "(\(played) played, \(Formatting.count(positions, "position"))), queue of \(queued), \(starred) starred"
        if settings > 0 { line += ", \(Formatting.count(settings, "feed setting"))" }
        let notMapped = [
            (skipped.episodesWithoutAudio, "episode", "without an audio URL"),
            (episodesNotFound, "episode", "not in a feed already subscribed"),
            (skipped.feedsNotFetchable, "feed", "not on the web (a local folder, or not http or https)"),
            (skipped.feedsNotSubscribed, "feed", "not subscribed in the app"),
            (skipped.settings, "feed setting", "podcli cannot take"),
        ].filter { $0.0 > 0 }.map { "\(Formatting.count($0.0, $0.1)) \($0.2)" }
        if !notMapped.isEmpty { line += "; " + notMapped.joined(separator: ", ") + " skipped" }
        return line
    }
}
