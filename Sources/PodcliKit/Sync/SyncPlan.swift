import EpisodeStore

/// What one `sync` downloads and deletes, decided from the library's state and the policy with no
/// I/O, so every rule can be checked on its own.
///
/// A sync runs in three steps, and the plan is made for the first two:
/// 1. `deletions`: played episodes whose `delete-played-after` days have passed. They need no
///    replacement, so they go first and free their space for the downloads.
/// 2. `downloads`, newest first across all feeds: what `download` asks for among each feed's
///    newest `keep` (downloaded or wanted), without what is too old or too large, while the disk
///    budget allows. Downloads cut short are finished, unless they are past `keep` and the newer
///    ones can come (not waiting out a backoff); those are left for step 3.
/// 3. `surplus(of:policy:)`, worked out again once the downloads are recorded: a feed's downloads
///    past its newest `keep`, and the downloads cut short behind them. `keep N` means N downloaded:
///    a download that failed never costs an older episode its file, nor a partial one its place.
/// Never an episode that is kept or queued (one being played is left alone when it is tried).
public struct SyncPlan: Equatable, Sendable {
    public struct Deletion: Equatable, Sendable {
        let id: Int
        let bytes: Int
        let reason: String
    }

    public struct Download: Equatable, Sendable {
        let id: Int
        /// The most it may weigh: its share of the disk budget, `max-size`, `stream-max-size`.
        let maxBytes: Int
        /// The length the feed announced (0 when it did not), reserved against `min-free` while it runs.
        let announcedBytes: Int
    }

    public struct Skip: Equatable, Sendable {
        let id: Int
        let reason: String
    }

    /// Step 1: played episodes past their days.
    public var deletions: [Deletion] = []
    public var downloads: [Download] = []
    /// Wanted but not downloaded, and why (too old, too large, over the budget).
    public var skipped: [Skip] = []
    /// Downloads left out because the disk is already below `min-free`: a failure, unlike the skips.
    public var belowFloor: [Skip] = []
    /// Downloads that failed in a row and wait before the next try.
    public var waiting: [Int] = []

    /// What the disk holds as sync starts.
    public struct Disk: Sendable {
        /// Bytes of every recorded file.
        var recorded: Int
        /// Free bytes on the data directory's file system.
        var free: Int?
    }

    /// - Parameters:
    ///   - episodes: the episodes that can change the plan, newest first (`Library.episodeStatuses`:
    ///     those with files, cut short or new, and every episode of the feeds whose `download` is `all`).
    ///   - policy: each feed's policy.
    ///   - now: seconds since the epoch.
    public init(
        episodes: [EpisodeStatus], policy: (Int) -> EpisodePolicy, settings: SyncSettings, disk: Disk, now: Int
    ) {
        var wanted: [EpisodeStatus] = []
        var replaced = 0
        for (feedID, feedEpisodes) in Self.byFeed(episodes, cutShort: &wanted) {
            let rules = policy(feedID)
            var keepers: [EpisodeStatus] = []
            for episode in feedEpisodes {
                if episode.isDownloaded {
                    if let reason = Self.expiry(of: episode, rules: rules, now: now) {
                        deletions.append(Deletion(id: episode.id, bytes: episode.fileSize ?? 0, reason: reason))
                    } else if !episode.isKept {
                        keepers.append(episode)
                    }
                } else if Self.isWanted(episode, rules: rules) {
                    if let reason = Self.refusal(of: episode, rules: rules, now: now) {
                        skipped.append(Skip(id: episode.id, reason: reason))
                    } else {
                        keepers.append(episode)
                    }
                }
            }
            // `keepers` is newest first: what is wanted among the newest `keep` is downloaded;
            // the downloads it pushes past `keep` are what step 3 will free.
            let newest = keepers.prefix(rules.keep ?? keepers.count)
            wanted += newest.filter { !$0.isDownloaded }
            // What can be on disk after this run among the newest: a wanted one still waiting out
            // its backoff will not be.
            var arriving = newest.filter { $0.isDownloaded || ($0.retryAt ?? 0) <= now }.count
            for episode in keepers.dropFirst(newest.count) {
                if episode.isDownloaded {
                    if !episode.isQueued { replaced += episode.fileSize ?? 0 }
                } else if episode.state == .downloading && (episode.isQueued || episode.isKept) {
                    wanted.append(episode)  // a download cut short that step 3 would not delete is finished
                } else if episode.state == .downloading && arriving < newest.count {
                    // Fills the place of a newer one that cannot come now; step 3 judges it after.
                    wanted.append(episode)
                    arriving += 1
                } else if episode.state == .downloading {
                    // Finished, step 3 would delete it; left as it is, step 3 deletes its partial
                    // file once the newer ones are downloaded (not before: they may yet fail).
                    skipped.append(Skip(id: episode.id, reason: Self.pastKeep(rules)))
                } else {
                    skipped.append(Skip(id: episode.id, reason: Self.pastKeep(rules)))
                }
            }
        }
        waiting = wanted.filter { ($0.retryAt ?? 0) > now }.map(\.id)
        wanted.removeAll { ($0.retryAt ?? 0) > now }
        wanted.sort { ($0.sortDate, -$0.id) > ($1.sortDate, -$1.id) }
        let expired = deletions.reduce(0) { $0 + $1.bytes }
        planDownloads(
            wanted, policy: policy, settings: settings, disk: disk, freedFirst: expired, freedAfter: replaced)
    }

    /// Step 3: each feed's downloads past its newest `keep`, from the library as it is after the
    /// downloads (kept episodes do not count; queued ones count and stay).
    public static func surplus(of episodes: [EpisodeStatus], policy: (Int) -> EpisodePolicy) -> [Deletion] {
        var ignored: [EpisodeStatus] = []
        var surplus: [Deletion] = []
        for (feedID, feedEpisodes) in byFeed(episodes, cutShort: &ignored) {
            let rules = policy(feedID)
            guard let keep = rules.keep else { continue }
            var newer = 0  // downloads newer than `episode` that count toward keep
            for episode in feedEpisodes where !episode.isKept {
                if episode.isDownloaded {
                    if newer >= keep && !episode.isQueued {
                        surplus.append(Deletion(id: episode.id, bytes: episode.fileSize ?? 0, reason: pastKeep(rules)))
                    }
                    newer += 1
                } else if episode.state == .downloading && newer >= keep && !episode.isQueued {
                    // A download cut short that step 2 left (`init`): finished, it would go too.
                    surplus.append(Deletion(id: episode.id, bytes: 0, reason: pastKeep(rules)))
                }
            }
        }
        return surplus
    }

    /// The episodes of each feed (newest first, in feed order), and in `cutShort` the downloads
    /// of episodes of no feed that a `fetch` left unfinished.
    private static func byFeed(
        _ episodes: [EpisodeStatus], cutShort: inout [EpisodeStatus]
    ) -> [(Int, [EpisodeStatus])] {
        var byFeed: [Int: [EpisodeStatus]] = [:]
        for episode in episodes {
            if let feedID = episode.feedID {
                byFeed[feedID, default: []].append(episode)
            } else if episode.state == .downloading && !episode.isDownloaded {
                cutShort.append(episode)
            }
        }
        return byFeed.sorted { $0.key < $1.key }
    }

    private static func pastKeep(_ rules: EpisodePolicy) -> String { "older than the newest \(rules.keep!) (keep)" }

    /// Why a downloaded episode should go now, or nil.
    private static func expiry(of episode: EpisodeStatus, rules: EpisodePolicy, now: Int) -> String? {
        guard !episode.isKept, !episode.isQueued, episode.played, let days = rules.deletePlayedAfterDays else {
            return nil
        }
        guard (episode.playedAt ?? 0) + days * 86_400 <= now else { return nil }
        return days == 0 ? "played" : "played more than \(Formatting.count(days, "day")) ago"
    }

    /// True when `download` asks for an episode not on disk.
    private static func isWanted(_ episode: EpisodeStatus, rules: EpisodePolicy) -> Bool {
        guard episode.removedAt == nil else { return false }
        if episode.state == .downloading { return true }
        guard episode.inFeed, !episode.played else { return false }
        switch rules.download {
        case .new: return episode.isNew
        case .all: return true
        case .none: return false
        }
    }

    /// Why the feed's own rules leave a wanted episode out, or nil.
    private static func refusal(of episode: EpisodeStatus, rules: EpisodePolicy, now: Int) -> String? {
        if episode.state == .downloading { return nil }
        if let days = rules.maxAgeDays, (episode.publishedAt ?? episode.sortDate) < now - days * 86_400 {
            return "published more than \(Formatting.count(days, "day")) ago (max-age)"
        }
        if let maxSize = rules.maxSize, let length = episode.enclosureLength, length > maxSize {
            return "\(Formatting.bytes(length)), larger than \(Formatting.bytes(maxSize)) (max-size)"
        }
        return nil
    }

    /// Reserves each download's announced size, newest first, against the disk budget. The
    /// free-space floor is not reserved here for every download at once (a first sync of a
    /// thousand feeds would refuse most of them): each reserves its length while it runs
    /// (`SpaceReservation`); only a disk already below the floor stops them all now.
    /// - Parameters:
    ///   - freedFirst: the bytes step 1 deletes before the downloads.
    ///   - freedAfter: the bytes step 3 will delete once the downloads replace them.
    private mutating func planDownloads(
        _ wanted: [EpisodeStatus], policy: (Int) -> EpisodePolicy, settings: SyncSettings, disk: Disk,
        freedFirst: Int, freedAfter: Int
    ) {
        if let free = disk.free, !wanted.isEmpty, free + freedFirst < settings.minFree {
            let reason = SpaceReservation.shortage(free: free + freedFirst, floor: settings.minFree)
            belowFloor = wanted.map { Skip(id: $0.id, reason: reason) }
            return
        }
        var reserved = disk.recorded - freedFirst - freedAfter
        var accepted: [(EpisodeStatus, Int)] = []
        for episode in wanted {
            // Feeds often announce 0 or a wrong length; the transfer's own checks catch the rest.
            let need = max(episode.enclosureLength ?? 0, 0)
            if let budget = settings.diskBudget, reserved + need > budget {
                skipped.append(
                    Skip(
                        id: episode.id,
                        reason: "the disk budget of \(Formatting.bytes(budget)) is spent (disk-budget)"))
                continue
            }
            reserved += need
            accepted.append((episode, need))
        }
        downloads = accepted.map { episode, need in
            var limit = settings.streamMaxSize
            if let feedID = episode.feedID, let maxSize = policy(feedID).maxSize { limit = min(limit, maxSize) }
            // The budget left once every other download takes what it announced.
            if let budget = settings.diskBudget { limit = min(limit, budget - (reserved - need)) }
            return Download(id: episode.id, maxBytes: limit, announcedBytes: need)
        }
    }
}
