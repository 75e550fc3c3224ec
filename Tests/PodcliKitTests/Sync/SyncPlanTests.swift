import EpisodeStore
import Testing

@testable import PodcliKit

/// The rules of `SyncPlan`, one at a time, on libraries described in a line or two.
@Suite struct SyncPlanTests {
    static let now = 1_800_000_000
    static let day = 86_400

    /// An episode of feed 1, published `age` days ago.
    static func episode(
        _ id: Int, age: Int = 1, size: Int? = nil, file: Int? = nil, state: EpisodeState = .new,
        played: Int? = nil, kept: Bool = false, queued: Bool = false, removed: Bool = false, new: Bool = false,
        feed: Int? = 1, retryAt: Int? = nil
    ) -> EpisodeStatus {
        EpisodeStatus(
            id: id, feedID: feed, sortDate: now - age * day, publishedAt: now - age * day, enclosureLength: size,
            state: file != nil ? .downloaded : state, fileSize: file, played: played != nil,
            playedAt: played.map { now - $0 * day }, isKept: kept, isQueued: queued, removedAt: removed ? now : nil,
            isNew: new, retryAt: retryAt)
    }

    static func plan(
        _ episodes: [EpisodeStatus], policy: EpisodePolicy = EpisodePolicy(), settings: SyncSettings = SyncSettings(),
        recorded: Int = 0, free: Int? = nil
    ) -> SyncPlan {
        var settings = settings
        if free == nil { settings.minFree = 0 }
        return SyncPlan(
            episodes: episodes.sorted { $0.sortDate > $1.sortDate }, policy: { _ in policy }, settings: settings,
            disk: SyncPlan.Disk(recorded: recorded, free: free), now: now)
    }

    @Test func newEpisodesAreDownloadedNewestFirstAndOthersAreNot() {
        let plan = Self.plan([
            Self.episode(1, age: 3, new: true), Self.episode(2, age: 1, new: true), Self.episode(3, age: 2),
            Self.episode(4, age: 0, new: true, feed: 2),
        ])
        #expect(plan.downloads.map(\.id) == [4, 2, 1])
        #expect(plan.deletions.isEmpty && plan.skipped.isEmpty)
    }

    @Test func allTakesEveryUnplayedEpisodeNotRemovedAndNoneTakesNothing() {
        let episodes = [
            Self.episode(1, age: 1), Self.episode(2, age: 2, played: 1), Self.episode(3, age: 3, removed: true),
            Self.episode(4, age: 4, file: 10),
        ]
        #expect(Self.plan(episodes, policy: EpisodePolicy(download: .all)).downloads.map(\.id) == [1])
        #expect(Self.plan(episodes, policy: EpisodePolicy(download: .none)).downloads.isEmpty)
    }

    @Test func aDownloadCutShortIsFinishedWhateverThePolicy() {
        let plan = Self.plan(
            [Self.episode(1, age: 400, state: .downloading), Self.episode(2, state: .downloading, feed: nil)],
            policy: EpisodePolicy(download: .none, keep: 1, maxAgeDays: 7))
        #expect(Set(plan.downloads.map(\.id)) == [1, 2])
    }

    @Test func aDownloadCutShortPastKeepIsDeletedUnlessQueuedOrKept() {
        let episodes = [
            Self.episode(1, age: 1, state: .downloading), Self.episode(2, age: 2, state: .downloading),
            Self.episode(3, age: 3, state: .downloading, queued: true),
            Self.episode(4, age: 4, state: .downloading, kept: true),
        ]
        let plan = Self.plan(episodes, policy: EpisodePolicy(keep: 1))
        #expect(plan.downloads.map(\.id) == [1, 3, 4])
        #expect(plan.deletions.isEmpty && plan.skipped.map(\.id) == [2])
        // Its partial file goes once the newer one is downloaded, not before (it may fail).
        #expect(SyncPlan.surplus(of: episodes) { _ in EpisodePolicy(keep: 1) }.isEmpty)
        let downloaded = [Self.episode(1, age: 1, file: 10)] + episodes.dropFirst()
        #expect(
            SyncPlan.surplus(of: downloaded) { _ in EpisodePolicy(keep: 1) }
                == [SyncPlan.Deletion(id: 2, bytes: 0, reason: "older than the newest 1 (keep)")])
    }

    @Test func aDownloadCutShortPastKeepIsFinishedInThePlaceOfANewerOneBackingOff() {
        let plan = Self.plan(
            [
                Self.episode(1, age: 1, new: true, retryAt: Self.now + 60),
                Self.episode(2, age: 2, state: .downloading), Self.episode(3, age: 3, state: .downloading),
            ], policy: EpisodePolicy(keep: 1))
        #expect(plan.waiting == [1] && plan.downloads.map(\.id) == [2])
        #expect(plan.deletions.isEmpty && plan.skipped.map(\.id) == [3])
    }

    @Test func keepDownloadsTheNewestAndSkipsOlderNewOnesButDeletesNothingBeforehand() {
        let episodes = [
            Self.episode(1, age: 1, new: true), Self.episode(2, age: 2, file: 10),
            Self.episode(3, age: 3, file: 10, kept: true), Self.episode(4, age: 4, file: 10, queued: true),
            Self.episode(5, age: 5, file: 10), Self.episode(6, age: 6, new: true),
        ]
        let plan = Self.plan(episodes, policy: EpisodePolicy(keep: 2))
        #expect(plan.downloads.map(\.id) == [1])
        #expect(plan.deletions.isEmpty)
        #expect(plan.skipped.map(\.id) == [6])
        // After the downloads: 3 is kept (and does not count), 4 is queued (counts, stays).
        let downloaded = [Self.episode(1, age: 1, file: 10)] + episodes.dropFirst()
        let surplus = SyncPlan.surplus(of: downloaded) { _ in EpisodePolicy(keep: 2) }
        #expect(surplus.map(\.id) == [5])
        #expect(surplus.first?.reason == "older than the newest 2 (keep)")
    }

    @Test func keepMeansDownloadedSoAFailedReplacementCostsNothing() {
        let policy = EpisodePolicy(keep: 1)
        let episodes = [Self.episode(1, age: 1, new: true), Self.episode(2, age: 2, file: 10)]
        let plan = Self.plan(episodes, policy: policy)
        #expect(plan.downloads.map(\.id) == [1] && plan.deletions.isEmpty)
        // Its download failed: the only episode on disk stays.
        #expect(SyncPlan.surplus(of: episodes) { _ in policy }.isEmpty)
        // It was recorded: now the older one goes.
        let replaced = [Self.episode(1, age: 1, file: 10), Self.episode(2, age: 2, file: 10)]
        #expect(SyncPlan.surplus(of: replaced) { _ in policy }.map(\.id) == [2])
    }

    @Test func playedEpisodesGoAfterTheirDaysUnlessKeptOrQueued() {
        let plan = Self.plan(
            [
                Self.episode(1, file: 10, played: 8), Self.episode(2, file: 10, played: 6),
                Self.episode(3, file: 10, played: 30, kept: true), Self.episode(4, file: 10, played: 30, queued: true),
            ], policy: EpisodePolicy(deletePlayedAfterDays: 7))
        #expect(plan.deletions == [SyncPlan.Deletion(id: 1, bytes: 10, reason: "played more than 7 days ago")])
        #expect(Self.plan([Self.episode(1, file: 10, played: 0)]).deletions.isEmpty)
    }

    @Test func maxAgeAndMaxSizeSkipWithTheirReasons() {
        let plan = Self.plan(
            [Self.episode(1, age: 10, new: true), Self.episode(2, age: 1, size: 300 << 20, new: true)],
            policy: EpisodePolicy(maxAgeDays: 7, maxSize: 100 << 20))
        #expect(plan.downloads.isEmpty)
        #expect(
            plan.skipped == [
                SyncPlan.Skip(id: 2, reason: "300.0 MiB, larger than 100.0 MiB (max-size)"),
                SyncPlan.Skip(id: 1, reason: "published more than 7 days ago (max-age)"),
            ])
    }

    @Test func theBudgetGoesToTheNewestAndEachDownloadIsCappedByWhatIsLeft() {
        var settings = SyncSettings()
        settings.diskBudget = 100
        let plan = Self.plan(
            [
                Self.episode(1, age: 1, size: 30, new: true), Self.episode(2, age: 2, size: 50, new: true),
                Self.episode(3, age: 3, size: 30, new: true), Self.episode(4, age: 4, size: 5, new: true),
                Self.episode(5, age: 5, file: 10, played: 10),
            ], policy: EpisodePolicy(deletePlayedAfterDays: 7), settings: settings, recorded: 20)
        // 20 recorded - 10 deleted + 30 + 50 = 90; 3 would pass 100; 4 fits: 95 reserved. Each may
        // take what the others leave.
        #expect(plan.downloads.map(\.id) == [1, 2, 4])
        #expect(plan.downloads.map(\.maxBytes) == [100 - (95 - 30), 100 - (95 - 50), 100 - (95 - 5)])
        #expect(plan.skipped.map(\.id) == [3])
    }

    @Test func aDownloadThatKeepsFailingWaitsItsTurn() {
        let waiting = EpisodeStatus(id: 1, feedID: 1, sortDate: Self.now, isNew: true, retryAt: Self.now + 60)
        let due = EpisodeStatus(id: 2, feedID: 1, sortDate: Self.now - 1, isNew: true, retryAt: Self.now)
        let plan = Self.plan([waiting, due])
        #expect(plan.downloads.map(\.id) == [2])
        #expect(plan.waiting == [1])
    }

    @Test func theFloorIsNotReservedForEveryPlannedDownloadAtOnce() {
        // A first sync of many feeds, each announcing ~90 MB per episode, on a disk with 79 GB
        // free: each download reserves its length while it runs, not all of them now.
        var settings = SyncSettings()
        settings.minFree = 512 << 20
        let episodes = (1...541).map { Self.episode($0, age: $0, size: 90 << 20, new: true, feed: $0) }
        let plan = Self.plan(episodes, settings: settings, free: 79 << 30)
        #expect(plan.downloads.count == 541 && plan.belowFloor.isEmpty)
        #expect(plan.downloads.first?.announcedBytes == 90 << 20)
    }

    @Test func aDiskAlreadyBelowTheFloorStopsEveryDownloadWithOneReason() {
        var settings = SyncSettings()
        settings.minFree = 100 << 20
        let plan = Self.plan(
            [Self.episode(1, age: 1, size: 30, new: true), Self.episode(2, age: 2, size: 30, new: true)],
            settings: settings, free: 60 << 20)
        #expect(plan.downloads.isEmpty)
        #expect(plan.belowFloor.map(\.id) == [1, 2])
        #expect(
            plan.belowFloor.first?.reason
                == "only 60.0 MiB of the disk is free, and min-free keeps 100.0 MiB free; free some space or lower min-free"
        )
        // What the played episodes give back counts: deleting 50 MiB first leaves room.
        let freeing = Self.plan(
            [Self.episode(1, age: 1, size: 30, new: true), Self.episode(3, age: 3, file: 50 << 20, played: 9)],
            policy: EpisodePolicy(deletePlayedAfterDays: 7), settings: settings, free: 60 << 20)
        #expect(freeing.downloads.map(\.id) == [1] && freeing.deletions.map(\.id) == [3])
    }
}
