import EpisodeStore

/// What one `sync` deletes and downloads, decided from the library's state and the policy with no
/// I/O, so every rule can be checked on its own.
///
/// Retention first: a played episode goes once `delete-played-after` days have passed, and a
/// feed keeps only its newest `keep` downloads (counting those it is about to download). Never an
/// episode that is kept or queued (one being played is left alone when the deletion is tried).
/// Then downloads, newest first across all feeds: what `download` asks for, without what is too
/// old or too large, while the disk budget and the free-space floor allow.
struct SyncPlan: Equatable {
    struct Deletion: Equatable {
        let id: Int
        let bytes: Int
        let reason: String
    }

    struct Download: Equatable {
        let id: Int
        /// The most it may weigh: its share of the disk budget, `max-size`, `stream-max-size`.
        let maxBytes: Int
    }

    struct Skip: Equatable {
        let id: Int
        let reason: String
    }

    var deletions: [Deletion] = []
    var downloads: [Download] = []
    /// Wanted but not downloaded, and why (too old, too large, over the budget).
    var skipped: [Skip] = []
    /// Downloads left out because the disk is nearly full: a failure, unlike the other skips.
    var belowFloor: [Skip] = []
    /// Downloads that failed in a row and wait before the next try.
    var waiting: [Int] = []

    /// What the disk holds as sync starts.
    struct Disk {
        /// Bytes of every recorded file.
        var recorded: Int
        /// Free bytes on the data directory's file system.
        var free: Int?
    }

    /// - Parameters:
    ///   - episodes: the library's episodes, newest first (`Library.episodeStatuses`).
    ///   - policy: each feed's policy.
    ///   - now: seconds since the epoch.
    init(
        episodes: [EpisodeStatus], policy: (Int) -> EpisodePolicy, settings: SyncSettings, disk: Disk, now: Int
    ) {
        var wanted: [EpisodeStatus] = []
        var byFeed: [Int: [EpisodeStatus]] = [:]
        for episode in episodes {
            if let feedID = episode.feedID {
                byFeed[feedID, default: []].append(episode)
            } else if episode.state == .downloading && !episode.isDownloaded {
                wanted.append(episode)  // a `fetch` cut short: finish it
            }
        }
        for (feedID, feedEpisodes) in byFeed.sorted(by: { $0.key < $1.key }) {
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
            // `keepers` is newest first: what is past the newest `keep` goes, or is not fetched.
            for episode in keepers.dropFirst(rules.keep ?? keepers.count) {
                if !episode.isDownloaded {
                    if episode.state != .downloading {
                        skipped.append(Skip(id: episode.id, reason: "older than the newest \(rules.keep!) (keep)"))
                    }
                } else if !episode.isQueued {
                    deletions.append(
                        Deletion(
                            id: episode.id, bytes: episode.fileSize ?? 0,
                            reason: "older than the newest \(rules.keep!) (keep)"))
                }
            }
            let kept = keepers.prefix(rules.keep ?? keepers.count)
            wanted += kept.filter { !$0.isDownloaded }
            // A download cut short is finished even when policy would not start it now.
            wanted += keepers.dropFirst(kept.count).filter { !$0.isDownloaded && $0.state == .downloading }
        }
        let deletedBytes = deletions.reduce(0) { $0 + $1.bytes }
        waiting = wanted.filter { ($0.retryAt ?? 0) > now }.map(\.id)
        wanted.removeAll { ($0.retryAt ?? 0) > now }
        wanted.sort { ($0.sortDate, -$0.id) > ($1.sortDate, -$1.id) }
        planDownloads(wanted, policy: policy, settings: settings, disk: disk, deletedBytes: deletedBytes)
    }

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

    /// Reserves each download's announced size, newest first, against the budget and the floor.
    private mutating func planDownloads(
        _ wanted: [EpisodeStatus], policy: (Int) -> EpisodePolicy, settings: SyncSettings, disk: Disk,
        deletedBytes: Int
    ) {
        var reserved = disk.recorded - deletedBytes
        var free = disk.free.map { $0 + deletedBytes }
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
            if let available = free, available - need < settings.minFree {
                belowFloor.append(
                    Skip(
                        id: episode.id,
                        reason: "less than \(Formatting.bytes(settings.minFree)) would be left free on the disk "
                            + "(min-free)"))
                continue
            }
            reserved += need
            free = free.map { $0 - need }
            accepted.append((episode, need))
        }
        downloads = accepted.map { episode, need in
            var limit = settings.streamMaxSize
            if let feedID = episode.feedID, let maxSize = policy(feedID).maxSize { limit = min(limit, maxSize) }
            // The budget left once every other download takes what it announced.
            if let budget = settings.diskBudget { limit = min(limit, budget - (reserved - need)) }
            return Download(id: episode.id, maxBytes: limit)
        }
    }
}
