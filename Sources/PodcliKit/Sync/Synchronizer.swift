import Downloads
import EpisodeStore
import FoundationEssentials
import Synchronization

/// One `podcli sync`: refreshes every feed, deletes what retention says, downloads what policy
/// asks for, and says what happened.
///
/// Refreshes and downloads run on `WorkerPool` threads, each with its own database connection and
/// curl handle; everything they record goes through the same paths as `refresh` and `fetch`, so a
/// run killed anywhere leaves what those leave: nothing recorded that is not complete, partial
/// files the next run resumes.
public final class Synchronizer: Sendable {
    public let libraryDirectory: String
    public let config: Config
    public let downloadPolicy: DownloadPolicy
    public let feedPolicy: DownloadPolicy
    /// Where what happens is told, as it happens.
    public let progress: any SyncReporter
    /// Seconds since the epoch: what ages and backoffs are measured against.
    private let clock: @Sendable () -> Int
    private let report = Mutex(SyncReport())
    /// The feeds `refresh` read before `run`, which reads each feed once.
    private let refreshedFirst = Mutex(Set<Int>())

    public init(
        libraryDirectory: String, config: Config, downloadPolicy: DownloadPolicy, feedPolicy: DownloadPolicy,
        reporter: any SyncReporter, clock: @escaping @Sendable () -> Int = Library.systemClock
    ) {
        self.libraryDirectory = libraryDirectory
        self.config = config
        self.downloadPolicy = downloadPolicy
        self.feedPolicy = feedPolicy
        self.progress = reporter
        self.clock = clock
    }

    /// Runs the sync on `library` (this thread's connection).
    public func run(_ library: Library) throws -> SyncReport {
        let now = clock()
        let feeds = try library.subscriptions()
        // A section whose feed was renamed or unsubscribed would be ignored without a word.
        for (section, feed) in config.sections(among: feeds) {
            guard case .failure(let problem) = feed else { continue }
            if case .ambiguousFeed(_, let titles) = problem {
                progress.note(
                    "\(section.location): [feed \"\(section.name)\"] names \(titles.count) subscriptions; "
                        + "give more of the title, or the feed's number")
            } else {
                progress.note(
                    "\(section.location): [feed \"\(section.name)\"] names no subscription (its title, URL or number)")
            }
        }
        let readFirst = refreshedFirst.withLock { $0 }
        let unread = feeds.filter { !readFirst.contains($0.id) }
        let due = unread.filter { ($0.retryAt ?? 0) <= now }
        // On this thread, before the workers start (see `CurlLibrary`).
        CurlLibrary.initialize()
        report.withLock { $0.backingOff = unread.count - due.count }
        // Measures as the refreshes and downloads go on: first what older runs left unmeasured,
        // then each download as it completes.
        let measuring = MeasuringWorker(libraryDirectory: libraryDirectory) { [self] in warn($0) }
        for file in try library.filesToMeasure(limit: Self.measuredBacklog) {
            let title = try library.episode(id: file.episodeID)?.title ?? ""
            measuring.measure(file, subject: "#\(file.episodeID) \(title)")
        }
        refresh(due)
        // Each feed's policy once: the plan asks for it per feed and per download.
        let policies = config.policies(of: feeds)
        // The plan reads what can change, not the library: every episode only of the feeds that
        // download all of theirs.
        let wholeFeeds = feeds.filter { policies[$0.id]?.download == .all }.map(\.id)
        let plan = SyncPlan(
            episodes: try library.episodeStatuses(everyEpisodeOf: wholeFeeds),
            policy: { [config] id in policies[id] ?? config.policy },
            settings: config.sync,
            disk: SyncPlan.Disk(
                recorded: try library.recordedBytes(), free: DownloadLimits.freeBytes(at: library.episodesDirectory)),
            now: now)
        try delete(plan.deletions, in: library)
        report.withLock {
            $0.skipped = plan.skipped.count
            $0.waiting = plan.waiting.count
        }
        let unwritten = try plan.belowFloor.map { skip in
            Unwritten(subject: "#\(skip.id) \(try library.episode(id: skip.id)?.title ?? "")", reason: skip.reason)
        }
        report.withLock { $0.unwritten = unwritten }
        download(plan.downloads, measuring: measuring)
        try refreshTranscripts(in: library)
        reportUnwritten()
        reportUnreached()
        // Only now, with the downloads recorded: what they pushed past a feed's `keep`.
        let surplus = SyncPlan.surplus(of: try library.episodeStatuses()) { [config] id in
            policies[id] ?? config.policy
        }
        try delete(surplus, in: library)
        measuring.finish()
        progress.finish()
        return report.withLock { $0 }
    }

    /// How many downloads older runs left unmeasured a run measures besides its own. Each is a
    /// whole decode, about 19 s of CPU for an hour of MP3 on a shared 2-core machine (debug
    /// build), on a thread of low priority beside refreshes that mostly wait for the network: 10
    /// adds at most a few minutes to one run, and a library of hundreds is measured within a few
    /// days of hourly runs.
    static let measuredBacklog = 10

    // MARK: Refreshing

    /// Reads `feeds` now, `jobs` at once, as `run` does: what a sync server subscribed this
    /// library to, before the positions that come down with it are merged. Their new episodes
    /// count in the run's report.
    public func refresh(_ feeds: [Feed]) {
        CurlLibrary.initialize()
        refreshedFirst.withLock { $0.formUnion(feeds.map(\.id)) }
        report.withLock { $0.feedsChecked += feeds.count }
        WorkerPool.run(
            feeds, threads: config.sync.jobs, perHost: config.sync.hostConnections,
            host: { URLComponents(string: $0.url)?.host?.lowercased() ?? "" },
            makeWorker: { [self] in
                let updater = Result {
                    FeedUpdater(
                        library: try Library(directory: libraryDirectory, clock: clock),
                        fetcher: FeedFetcher(policy: feedPolicy),
                        protection: config.protection)
                }
                return { feed in self.refresh(feed, with: updater) }
            })
    }

    private func refresh(_ feed: Feed, with updater: Result<FeedUpdater, Error>) {
        do {
            let outcome = try updater.get().refresh(feed) { progress.note("#\(feed.id) \(feed.title): \($0)") }
            report.withLock { $0.reachedAServer = true }
            guard case .refreshed(let read, let summary) = outcome else { return }
            let count = summary.newEpisodeIDs.count
            report.withLock { $0.newEpisodes += count }
            // By the title just read: a feed a sync server subscribed had only its URL.
            if count > 0 { progress.result("#\(feed.id) \(read.title): \(count) new") }
        } catch let error where report.withLock({ $0.unreached.add(error, noun: "feed", verb: "not refreshed") }) {
            return  // told once for all (`reportUnreached`)
        } catch {
            report.withLock {
                $0.feedsFailed += 1
                $0.reachedAServer = true
            }
            fail("#\(feed.id) \(feed.title)", "\(error)", cause: error)
        }
    }

    // MARK: Retention

    private func delete(_ deletions: [SyncPlan.Deletion], in library: Library) throws {
        for deletion in deletions {
            guard let episode = try library.episode(id: deletion.id) else { continue }
            do {
                let lock = try library.lock(episode)
                try withExtendedLifetime(lock) { try library.removeFiles(of: episode) }
                report.withLock {
                    $0.deleted += 1
                    $0.deletedBytes += deletion.bytes
                }
                progress.result("Deleted #\(episode.id) \(episode.title): \(deletion.reason)")
            } catch StoreError.busy {
                continue  // being played or downloaded right now: the next run looks again
            } catch let error as StoreError {
                // A directory that cannot be deleted (permissions) must not stop the rest; a
                // database that fails would fail the rest too.
                guard case .io = error else { throw error }
                fail("#\(episode.id) \(episode.title)", "not deleted: \(error)", cause: error)
            }
        }
    }

    // MARK: Downloading

    private func download(_ downloads: [SyncPlan.Download], measuring: MeasuringWorker) {
        progress.downloadsBegin(total: downloads.count)
        var policy = downloadPolicy
        if let rate = config.sync.limitRate {
            policy.rateLimiter = RateLimiter(bytesPerSecond: rate)
            // Each transfer gets a share of the rate: it must not count as stalled.
            policy.lowSpeedLimit = min(policy.lowSpeedLimit, max(rate / (4 * config.sync.jobs), 1))
        }
        let space = SpaceReservation(floor: config.sync.minFree, directory: libraryDirectory + "/episodes")
        WorkerPool.run(downloads, threads: config.sync.jobs) { [self, policy] in
            let library = Result { try Library(directory: libraryDirectory, clock: clock) }
            let downloader = Downloader(policy: policy)
            return { download in
                self.download(download, library: library, downloader: downloader, space: space, measuring: measuring)
            }
        }
    }

    private func download(
        _ download: SyncPlan.Download, library: Result<Library, Error>, downloader: Downloader,
        space: SpaceReservation, measuring: MeasuringWorker
    ) {
        var subject = "#\(download.id)"
        do {
            let library = try library.get()
            guard let episode = try library.episode(id: download.id) else { return }
            subject += " \(episode.title)"
            // Once the disk is full, the downloads left would each fail the same way.
            if let full = report.withLock({ $0.diskFull }) {
                progress.downloadEnded(download.id)
                return report.withLock { $0.unwritten.append(Unwritten(subject: subject, reason: full)) }
            }
            if let shortage = space.reserve(download.announcedBytes) {
                progress.downloadEnded(download.id)
                return report.withLock { $0.unwritten.append(Unwritten(subject: subject, reason: shortage)) }
            }
            defer { space.release(download.announcedBytes) }
            var fetcher = EpisodeFetcher(
                library: library, downloader: downloader,
                limits: DownloadLimits(
                    maxBytes: download.maxBytes, maxSeconds: Double(config.sync.streamMaxTime),
                    minFreeBytes: config.sync.minFree))
            fetcher.onEvent = { [progress, self] event in
                switch event {
                case .progress(let received, let total):
                    progress.downloadProgress(download.id, received: received, total: total)
                case .warning(let line): warn(line)
                case .retrying, .ended: break
                }
            }
            let file = try fetcher.fetch(episode)
            measuring.measure(file, subject: subject)
            progress.downloadEnded(download.id)
            report.withLock { $0.reachedAServer = true }
            let downloaded = SyncReport.Downloaded(
                id: episode.id, title: episode.title, podcast: try episode.feedID.flatMap(library.feed(id:))?.title,
                sortDate: episode.sortDate, bytes: file.size)
            report.withLock { $0.downloaded.append(downloaded) }
            progress.result("Downloaded #\(episode.id) \(episode.title) (\(Formatting.bytes(file.size)))")
        } catch StoreError.busy {
            progress.downloadEnded(download.id)  // another podcli is downloading it
        } catch let error where error.isOutOfSpace {
            // The machine's failure, not the episode's: told once for all (`reportUnwritten`).
            progress.downloadEnded(download.id)
            report.withLock {
                $0.diskFull = $0.diskFull ?? "\(error)"
                $0.unwritten.append(Unwritten(subject: subject, reason: "\(error)"))
            }
        } catch let error where report.withLock({ $0.unreached.add(error, noun: "episode", verb: "not downloaded") }) {
            progress.downloadEnded(download.id)  // told once for all (`reportUnreached`)
        } catch {
            progress.downloadEnded(download.id)
            report.withLock { $0.reachedAServer = true }
            fail(subject, "\(error)", cause: error)
        }
    }

    /// The transcripts of downloaded episodes whose feed changed its offers (a refresh marked
    /// them), fetched again one after the other: a few in a run, found without reading the others.
    private func refreshTranscripts(in library: Library) throws {
        var fetcher = EpisodeFetcher(library: library, downloader: Downloader(policy: downloadPolicy))
        fetcher.onEvent = { [self] event in
            if case .warning(let line) = event { warn(line) }
        }
        for id in try library.episodesWithChangedTranscriptOffers() {
            guard let episode = try library.episode(id: id) else { continue }
            do {
                try fetcher.refreshTranscript(of: episode)
            } catch .busy {
                continue  // another podcli is downloading it, and fetches its transcript after
            }
        }
    }

    /// One failure line for every download the disk stopped: what needs seeing to is the disk.
    private func reportUnwritten() {
        let unwritten = report.withLock { $0.unwritten }
        guard let first = unwritten.first else { return }
        let subject = unwritten.count == 1 ? first.subject : Formatting.count(unwritten.count, "episode")
        fail(subject, "not downloaded: \(first.reason)", cause: PodcliError.outOfSpace(reason: first.reason))
    }

    /// One failure line for every feed and download whose host could not be reached: an outage
    /// is the network's, not each feed's, and nothing was recorded against them.
    private func reportUnreached() {
        let (unreached, reached) = report.withLock { ($0.unreached, $0.reachedAServer) }
        guard let cause = unreached.cause else { return }
        fail(nil, unreached.line(nothingReached: !reached), cause: cause)
    }

    /// Reports what is worth knowing but failed nothing (a download that could not be measured):
    /// told at once and logged, with no effect on the exit code.
    private func warn(_ line: String) {
        progress.note("warning: " + line)
        report.withLock { $0.warnings.append(line) }
    }

    /// Reports a failure at once (cron mails stderr) and counts it.
    private func fail(_ subject: String?, _ message: String, cause: any Error) {
        let failure = SyncReport.Failure(subject: subject, message: message, cause: cause)
        progress.failure(failure.line)
        report.withLock { $0.failures.append(failure) }
    }
}

/// A download the disk stopped, and why.
public struct Unwritten: Sendable {
    public let subject: String
    public let reason: String
}

/// What a sync did, for its summary line, its log and its exit code.
public struct SyncReport: Sendable {
    public struct Downloaded: Sendable {
        public let id: Int
        public let title: String
        public let podcast: String?
        public let sortDate: Int
        public let bytes: Int
    }

    public struct Failure: Sendable {
        /// What failed ("#3 Show"); nil for a failure of many (the network's).
        public let subject: String?
        public let message: String
        /// What failed: the executable's exit code follows it.
        public let cause: any Error & Sendable

        /// "#3 Show: server answered 404 Not Found for …", as it is told and logged.
        public var line: String { subject.map { "\($0): \(message)" } ?? message }
    }

    public var feedsChecked = 0
    public var feedsFailed = 0
    /// Feeds left alone after repeated failures.
    public var backingOff = 0
    public var newEpisodes = 0
    public var downloaded: [Downloaded] = []
    public var deleted = 0
    public var deletedBytes = 0
    /// Wanted episodes policy left out (too old, too large, over the budget).
    public var skipped = 0
    /// Downloads that failed in a row and wait before the next try.
    public var waiting = 0
    public var failures: [Failure] = []
    /// What went wrong without failing anything: downloads that could not be measured.
    public var warnings: [String] = []
    /// Downloads the disk stopped (below `min-free`, full), and why.
    public var unwritten: [Unwritten] = []
    /// Why the disk took no more, once a download found it full.
    public var diskFull: String?
    /// Feeds and downloads whose host could not be reached.
    public var unreached = Unreached()
    /// Whether any feed or download got as far as a server (else the network is down).
    public var reachedAServer = false

    /// "12 feeds (1 failed), 3 new, 2 downloaded (41.0 MiB), 1 deleted (9.5 MiB), 2 skipped by
    /// policy, 1 feed backing off".
    public var summary: String {
        var parts = [
            Formatting.count(feedsChecked, "feed") + feedTrouble,
            "\(newEpisodes) new",
            "\(downloaded.count) downloaded" + (downloaded.isEmpty ? "" : " (\(Formatting.bytes(downloadedBytes)))"),
            "\(deleted) deleted" + (deleted == 0 ? "" : " (\(Formatting.bytes(deletedBytes)))"),
        ]
        if skipped > 0 { parts.append("\(skipped) skipped by policy") }
        if backingOff > 0 { parts.append(Formatting.count(backingOff, "feed") + " backing off") }
        if waiting > 0 { parts.append(Formatting.count(waiting, "download") + " backing off") }
        if !unwritten.isEmpty { parts.append("\(unwritten.count) not downloaded for want of disk space") }
        let downloadFailures = failures.count - feedsFailed - (unwritten.isEmpty ? 0 : 1) - (unreached.isEmpty ? 0 : 1)
        if downloadFailures > 0 { parts.append(Formatting.count(downloadFailures, "download") + " failed") }
        return parts.joined(separator: ", ")
    }

    /// " (2 failed, 1 not reached)", or nothing.
    private var feedTrouble: String {
        let unreachedFeeds = unreached.count(of: "feed")
        let parts = [(feedsFailed, "failed"), (unreachedFeeds, "not reached")].filter { $0.0 > 0 }.map {
            "\($0.0) \($0.1)"
        }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    public var downloadedBytes: Int { downloaded.reduce(0) { $0 + $1.bytes } }

    /// What was downloaded, newest first, for the desktop notification.
    public var newestFirst: [DownloadedEpisode] {
        downloaded.sorted { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) }.map {
            DownloadedEpisode(id: $0.id, title: $0.title, podcast: $0.podcast)
        }
    }
}
