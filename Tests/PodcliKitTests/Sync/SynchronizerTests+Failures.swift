import Downloads
import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// What a sync does when feeds and downloads fail: goes on with the rest, records each failure,
/// leaves what keeps failing alone until its `retry_at` (by the synchronizer's clock), and
/// finishes what a run cut short.
extension SynchronizerTests {
    @Test func aFailingFeedOrDownloadNeverStopsTheOthersAndIsRecorded() throws {
        let s = try SyncShelf()
        for show in ["alpha", "beta", "gamma"] { try s.subscribe(try s.serve(show, episodes: 1...1)) }
        try s.t.withdraw("beta.xml")
        try s.t.withdraw("gamma-ep1.mp3")

        let sync = try s.sync()
        #expect(sync.report.feedsChecked == 3 && sync.report.feedsFailed == 1)
        let gamma = try s.t.episode("gamma 1")
        #expect(
            Set(sync.told.failures) == [
                "#2 beta: server answered 404 Not Found for \(s.t.url("beta.xml"))",
                "#\(gamma.id) gamma 1: server answered 404 Not Found for \(s.t.url("gamma-ep1.mp3"))",
            ])
        // Each failure keeps what caused it, for the executable's exit code.
        #expect(sync.report.failures.count == 2)
        #expect(
            sync.report.failures.allSatisfy { if case DownloadError.http(404, _, _) = $0.cause { true } else { false } }
        )
        #expect(
            sync.report.summary == "3 feeds (1 failed), 0 new, 2 downloaded (58.6 KiB), 0 deleted, 1 download failed")
        // beta's known episode is fetched although its feed failed.
        #expect(Set(try s.t.downloaded()) == ["alpha 1", "beta 1"])

        let beta = try #require(try s.library.feed(id: 2))
        #expect(beta.lastError?.contains("404 Not Found") == true && beta.failures == 1 && beta.retryAt == nil)
        let failed = try s.t.episode("gamma 1")
        #expect(failed.state == .failed && failed.lastError?.contains("404 Not Found") == true)
        #expect(try s.library.attempts(of: failed).map(\.httpStatus) == [404])
    }

    @Test func aFeedThatKeepsFailingIsLeftAloneUntilItsRetryTimeAndASuccessEndsIt() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1))
        try s.t.withdraw("alpha.xml")
        for _ in 1...3 { #expect(try s.sync().report.feedsFailed == 1) }
        // A 404 is not retried within a run: one request a run.
        #expect(try s.t.gets("alpha.xml").count == 1 + 3)

        let fourth = try s.sync()
        #expect(fourth.report.failures.isEmpty && fourth.report.backingOff == 1)
        #expect(fourth.report.summary == "0 feeds, 0 new, 0 downloaded, 0 deleted, 1 feed backing off")
        #expect(try s.t.gets("alpha.xml").count == 1 + 3)
        let feed = try #require(try s.library.feed(id: 1))
        #expect(feed.failures == 3)
        let retryAt = try #require(feed.retryAt)
        #expect(retryAt >= s.clock.now + 3600 - 60)

        // Past its retry time by the clock, it is asked again; a success ends the backoff.
        try s.serve("alpha", episodes: 1...2)
        s.clock.advance(by: retryAt - s.clock.now + 1)
        let later = try s.sync()
        #expect(later.report.backingOff == 0 && later.report.newEpisodes == 1 && later.report.failures.isEmpty)
        #expect(try s.t.gets("alpha.xml").count == 1 + 3 + 1)
        let healed = try #require(try s.library.feed(id: 1))
        #expect(healed.failures == 0 && healed.retryAt == nil && healed.lastError == nil)
        #expect(try s.t.downloaded() == ["alpha 2", "alpha 1"])
    }

    @Test func aBrokenEnclosureIsLeftAloneAfterRepeatedFailuresUntilItsRetryTime() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1))
        let audio = try Data(contentsOf: s.t.served.appendingPathComponent("alpha-ep1.mp3"))
        try s.t.withdraw("alpha-ep1.mp3")
        for _ in 1...3 { #expect(try s.sync().report.failures.count == 1) }

        let fourth = try s.sync()
        #expect(fourth.report.failures.isEmpty && fourth.report.waiting == 1)
        #expect(fourth.report.summary.hasSuffix(", 1 download backing off"))
        #expect(try s.downloads("alpha", 1).count == 3)
        let episode = try s.t.episode("alpha 1")
        #expect(episode.state == .failed)
        let retryAt = try #require(try s.library.episodeStatuses().first { $0.id == episode.id }?.retryAt)

        try s.t.serve("alpha-ep1.mp3", audio)
        s.clock.advance(by: retryAt - s.clock.now + 1)
        let later = try s.sync()
        #expect(later.report.waiting == 0 && later.report.downloaded.map(\.title) == ["alpha 1"])
        #expect(try s.t.episode("alpha 1").lastError == nil)
        #expect(try s.library.episodeStatuses().first { $0.id == episode.id }?.retryAt == nil)
    }

    /// What a run killed in the middle of downloads leaves: episodes `downloading`, with partial
    /// files and the validators they came with. The next run finishes them, whatever the policy
    /// says now (even of an episode of no feed, that `fetch` began), asking only for the rest.
    @Test func aRunCutShortIsFinishedByTheNextAskingOnlyForWhatIsMissing() throws {
        let s = try SyncShelf()
        try s.subscribe(try s.serve("alpha", episodes: 1...1, size: 200_000))
        let loose = try s.t.serve("loose.mp3", AudioBytes.make(150_000, seed: 99))
        let fetched = try s.library.createEpisode(title: "loose", sourceURL: loose, protection: .private)
        for (episode, name, arrived) in [
            (try s.t.episode("alpha 1"), "alpha-ep1.mp3", 120_000), (fetched, "loose.mp3", 50_000),
        ] {
            let whole = try Data(contentsOf: s.t.served.appendingPathComponent(name))
            let directory = try s.library.prepareDirectory(for: episode)
            try whole.prefix(arrived).write(to: URL(fileURLWithPath: directory + "/" + name + ".part"))
            try s.library.setState(.downloading, of: episode)
            let head = try s.t.server.get(s.t.path(name), method: "HEAD")
            try s.library.setValidator(head.header("ETag"), of: episode)
        }

        let rerun = try s.sync("download = none\n")
        #expect(rerun.report.failures.isEmpty)
        #expect(Set(rerun.report.downloaded.map(\.title)) == ["alpha 1", "loose"])
        #expect(try s.t.partialFiles().isEmpty)
        #expect(try s.downloads("alpha", 1).map(\.range) == ["bytes=120000-"])
        #expect(try s.t.gets("loose.mp3").map(\.range) == ["bytes=50000-"])
        for (title, name) in [("alpha 1", "alpha-ep1.mp3"), ("loose", "loose.mp3")] {
            let episode = try s.t.episode(title)
            #expect(try s.t.recordedBytes(of: episode) == Data(contentsOf: s.t.served.appendingPathComponent(name)))
            #expect(episode.state == .downloaded)
        }
        // And the next run has nothing left to do.
        #expect(try s.sync("download = none\n").report.downloaded.isEmpty)
        #expect(try s.downloads("alpha", 1).count == 1)
    }
}
