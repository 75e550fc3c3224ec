import Downloads
import EpisodeStore
import Feeds
import Threads

/// Where an import tells what happens to each feed, as it happens: the executable's lines, or a
/// test's record.
public protocol ImportReporter {
    /// `url` was recorded (told once the transaction holding it is committed).
    func recorded(_ url: String, _ outcome: FeedUpdater.Outcome)
    /// `url` failed and changed nothing but its own failure count (a subscription's).
    func failed(_ url: String, _ error: any Error)
    /// `url`'s document had something left out (`FeedUpdater.Fetched.note`).
    func noted(_ url: String, _ note: String)
}

extension ImportReporter {
    public func noted(_ url: String, _ note: String) {}
}

/// Subscribes to many feeds at once (`podcli import`): each is fetched and read on a thread of its
/// own, a few feeds ahead, while the library records the ones before through a `WriteBatch`
/// (by default a transaction per feed, with a larger page cache and fewer checkpoints; with
/// `limits.writes` above 1, several feeds per transaction, none held while waiting for the
/// network).
///
/// The outcome is that of `FeedUpdater.subscribe` (or `refresh`, for a feed already subscribed)
/// run for each feed in turn: the same records, failures told in the same order.
public struct FeedImporter {
    public let library: Library
    public let policy: DownloadPolicy
    public let protection: Protection
    public let limits: WriteBatch.Limits

    /// A transaction per feed (the library's own), with the batch's cache and checkpoint
    /// settings: measured faster at a million episodes than several feeds to a transaction.
    public static var limits: WriteBatch.Limits {
        var limits = WriteBatch.Limits()
        limits.writes = 1
        return limits
    }

    /// Feeds fetched and read ahead of the one being recorded: what waits in memory. (One at a
    /// time from the network, as `sync` fetches from one host by default.)
    static let readAhead = 4

    public init(
        library: Library, policy: DownloadPolicy, protection: Protection,
        limits: WriteBatch.Limits = FeedImporter.limits
    ) {
        self.library = library
        self.policy = policy
        self.protection = protection
        self.limits = limits
    }

    /// Subscribes to `urls` in order, refreshing those already subscribed, telling `reporter`
    /// about each. A feed's failure undoes only that feed; the others go on.
    /// - Throws: only a failure of the library itself, which stops the import at once (the feeds
    ///   told as recorded stay recorded).
    public func run(_ urls: [String], reporter: any ImportReporter) throws {
        let targets = try urls.map { url throws(StoreError) in
            try library.feed(url: url).map(Target.refresh) ?? .subscribe(url)
        }
        // On this thread, before the reading thread starts (see `CurlLibrary`).
        CurlLibrary.initialize()
        let policy = policy
        let reader = ReadAhead(name: "podcli-import", count: targets.count, capacity: Self.readAhead) { stop in
            let fetcher = FeedFetcher(policy: policy, stop: stop)
            return { index in
                let request =
                    switch targets[index] {
                    case .subscribe(let url): FeedUpdater.subscribeRequest(url: url)
                    case .refresh(let feed): FeedUpdater.refreshRequest(for: feed)
                    }
                return Result { try FeedUpdater.fetch(request, with: fetcher) }
            }
        }
        defer { reader.stop() }
        let updater = FeedUpdater(library: library, fetcher: FeedFetcher(policy: policy), protection: protection)
        let subscriptions = targets.count { if case .subscribe = $0 { true } else { false } }
        try library.loadingInBulk(adding: subscriptions) {
            try record(targets, urls, from: reader, with: updater, reporter)
        }
    }

    private func record(
        _ targets: [Target], _ urls: [String], from reader: ReadAhead<Result<FeedUpdater.Fetched, any Error>>,
        with updater: FeedUpdater, _ reporter: any ImportReporter
    ) throws {
        try WriteBatch.run(library, limits: limits) { batch in
            for (url, target) in zip(urls, targets) {
                guard let fetched = try reader.next(beforeWaiting: batch.commit) else { return }
                if case .success(let document) = fetched, let note = document.note { reporter.noted(url, note) }
                // A feed's own failure is its savepoint's result, so what `refresh` records of
                // it (the failure count) is kept; the library's rolls the savepoint back.
                let outcome = try batch.write {
                    () throws -> Result<FeedUpdater.Outcome, any Error> in
                    do {
                        return .success(try record(fetched, of: target, with: updater))
                    } catch let error as StoreError where error.isLibraryFailure {
                        throw error
                    } catch {
                        return .failure(error)
                    }
                } committed: { outcome in
                    if case .success(let recorded) = outcome { reporter.recorded(url, recorded) }
                }
                if case .failure(let error) = outcome { reporter.failed(url, error) }
            }
        }
    }

    private enum Target: Sendable {
        case subscribe(String)
        case refresh(Feed)
    }

    private func record(
        _ fetched: Result<FeedUpdater.Fetched, any Error>, of target: Target, with updater: FeedUpdater
    ) throws -> FeedUpdater.Outcome {
        let outcome: FeedUpdater.Outcome
        switch target {
        case .subscribe(let url):
            outcome = try updater.subscribe(url: url, fetched: try fetched.get())
            if case .audio = outcome { throw FeedUpdater.servesAudio(url) }
        case .refresh(let feed):
            outcome = try updater.refresh(try library.feed(id: feed.id) ?? feed) { try fetched.get() }
        }
        return outcome
    }
}
