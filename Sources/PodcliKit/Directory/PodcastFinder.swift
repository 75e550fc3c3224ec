import Downloads
import PodcastDirectory

/// The directories a user's settings name, asked as one: `search` asks Apple and, with a key,
/// Podcast Index, and shows what either found; `feedURL(for:)` reads a podcast link.
public struct PodcastFinder {
    let settings: DirectorySettings
    let client: APIClient

    public init(settings: DirectorySettings, client: APIClient) {
        self.settings = settings
        self.client = client
    }

    /// What a search found in every directory, Apple's first, each feed once; and what a
    /// directory said when another still found something.
    public struct Found {
        public var podcasts: [DirectoryPodcast]
        /// Results left out for having no feed.
        public var withoutFeed: Int
        /// Each directory that failed while another answered: its error.
        public var failures: [DirectoryError]
    }

    /// Podcasts matching `term`, at most `limit` from each directory.
    /// - Throws: the first directory's `DirectoryError` when none found anything;
    ///   `PodcliError.secretCommand` when Podcast Index's secret cannot be had.
    public func search(_ term: String, limit: Int) throws -> Found {
        var outcomes: [Result<DirectoryResults, DirectoryError>] = [
            Result { () throws(DirectoryError) in
                try AppleDirectory(baseURL: settings.url).search(term, limit: limit, with: client)
            }
        ]
        if let key = settings.podcastIndexKey, let command = settings.podcastIndexSecretCommand {
            let secret = try SecretCommand.firstLine(of: command, setting: Setting.podcastIndexSecretCommand.rawValue)
            let index = PodcastIndex(baseURL: settings.podcastIndexURL, key: key, secret: secret)
            outcomes.append(Result { () throws(DirectoryError) in try index.search(term, limit: limit, with: client) })
        }
        var found = Found(podcasts: [], withoutFeed: 0, failures: [])
        var feeds = Set<String>()
        for outcome in outcomes {
            switch outcome {
            case .success(let results):
                found.podcasts += results.podcasts.filter { feeds.insert($0.feedURL).inserted }
                found.withoutFeed += results.withoutFeed
            case .failure(.nothingFound(_, let withoutFeed)):
                found.withoutFeed += withoutFeed
            case .failure(let error):
                found.failures.append(error)
            }
        }
        guard found.podcasts.isEmpty else { return found }
        if let failure = found.failures.first { throw failure }
        throw DirectoryError.nothingFound(term: term, withoutFeed: found.withoutFeed)
    }

    /// The feed URL a link stands for: the one it wraps, or the one Apple's lookup gives.
    /// - Throws: `DirectoryError` from the lookup.
    public func feedURL(for link: PodcastLink) throws(DirectoryError) -> String {
        switch link {
        case .feed(let url): return url
        case .apple(let id): return try AppleDirectory(baseURL: settings.url).lookup(id: id, with: client).feedURL
        }
    }
}
