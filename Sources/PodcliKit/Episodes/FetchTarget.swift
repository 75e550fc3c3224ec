import Downloads
import EpisodeStore
import FoundationEssentials
import Strings

/// What `podcli fetch` is given, by the one rule podcli names things by: a subscribed feed (to
/// refresh), an episode the library knows (to download), or a URL to look at (a feed to subscribe
/// to, or audio to download as an episode of its own).
public enum FetchTarget {
    case feed(Feed)
    case episode(Episode)
    /// An http(s) URL podcli knows nothing of.
    case url(String)

    /// A subscribed feed's URL; else, when `reference` is not a URL, a feed's number or name
    /// (`FeedReference`), then a listed episode's number or UUID prefix; else the audio URL of an
    /// episode podcli knows; else a URL to fetch.
    /// - Throws: `DownloadError.invalidURL` for what is neither a name podcli knows nor an http(s)
    ///   URL; `StoreError.ambiguousFeed` for a name several feeds share.
    public static func resolve(_ reference: String, in library: Library) throws -> FetchTarget {
        if let feed = try library.feed(url: reference) { return .feed(feed) }
        if !reference.contains("://") {
            do {
                return .feed(try library.feed(matching: reference))
            } catch StoreError.feedNotFound {
                guard let episode = try? library.episode(matching: reference) else {
                    throw DownloadError.invalidURL(reference)
                }
                return .episode(episode)
            }
        }
        if let episode = try library.episode(sourceURL: reference) { return .episode(episode) }
        try DownloadError.checkFetchable(reference)
        return .url(reference)
    }

    /// What fetching a target comes to before any audio is downloaded.
    public enum Resolution {
        /// A feed subscribed to or refreshed.
        case feed(FeedUpdater.Outcome)
        /// The episode to download; `madeHere` when this fetch recorded it (and so must forget
        /// it again if the download keeps nothing: "nothing was kept" means not even a row).
        case episode(Episode, madeHere: Bool)
    }

    /// Refreshes the feed, or subscribes to the URL when it is a feed; else finds or makes the
    /// episode to download (titled `title`, else by the URL's file name).
    public func resolve(with updater: FeedUpdater, title: String?) throws -> Resolution {
        switch self {
        case .feed(let feed):
            return .feed(try updater.refresh(feed))
        case .episode(let episode):
            return .episode(episode, madeHere: false)
        case .url(let url):
            let outcome = Self.looksLikeAudio(url) ? .audio : try updater.subscribe(url: url)
            guard case .audio = outcome else { return .feed(outcome) }
            let (episode, madeHere) = try updater.library.episodeToFetch(
                sourceURL: url, title: title ?? Self.defaultTitle(for: url), protection: updater.protection)
            return .episode(episode, madeHere: madeHere)
        }
    }

    /// Extensions of the audio files podcasts publish.
    public static let audioExtensions: Set<String> = [
        "mp3", "mp2", "mp1", "m4a", "aac", "ogg", "oga", "opus", "flac", "wav",
    ]

    /// True when the URL's path ends in an audio file name: it needs no look first (one
    /// request, as before feeds existed).
    public static func looksLikeAudio(_ url: String) -> Bool {
        let path = URLComponents(string: url)?.path ?? ""
        return audioExtensions.contains(pathExtension(of: path).lowercased())
    }

    /// What follows the last dot of the last component, as NSString's pathExtension reads it: ""
    /// for a hidden file's name (".mp3") or a name ending in a dot.
    private static func pathExtension(of path: String) -> Substring {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: "."), dot != name.startIndex
        else { return "" }
        return name[name.index(after: dot)...]
    }

    /// The title of an episode fetched by its URL: "https://x/shows/ep-12.mp3?x=1" → "ep-12".
    public static func defaultTitle(for url: String) -> String {
        let last = URLComponents(string: url)?.path.split(separator: "/").last.map(String.init)
        let name = last?.removingPercentEscapes() ?? last ?? ""
        let stem = name.contains(".") ? String(name[..<name.lastIndex(of: ".")!]) : name
        return stem.isEmpty ? (URLComponents(string: url)?.host ?? url) : stem
    }
}

extension Library {
    /// The newest `limit` episodes of `feed` not downloaded yet (all of them for nil), newest
    /// first: what `fetch --download N` downloads.
    public func newestNotDownloaded(of feed: Feed, limit: Int?) throws -> [Episode] {
        var filter = EpisodeFilter()
        filter.feedID = feed.id
        var chosen: [Episode] = []
        try forEachListing(filter) { listing in
            guard listing.state != .downloaded else { return true }
            if let episode = try? episode(id: listing.id) { chosen.append(episode) }
            return limit.map { chosen.count < $0 } ?? true
        }
        return chosen
    }
}
