import Downloads
import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// What `podcli fetch X` comes to for each thing X may name, before any audio is downloaded.
@Suite struct FetchTargetTests {
    @Test func aFeedIsSubscribedThenRefreshedByItsURLNumberOrName() throws {
        let s = try FeedUpdaterTests.Shelf()
        let url = try s.t.serve("feed.xml", RSS(title: "Morning Walks", items: RSS.unfetched(2)).text)
        guard
            case .feed(.subscribed(let feed, _)) = try FetchTarget.resolve(url, in: s.t.library).resolve(
                with: s.updater, title: nil)
        else { throw TestSupportError("the feed was not subscribed to") }
        for name in [url, "\(feed.id)", "morning"] {
            guard
                case .feed(let outcome) = try FetchTarget.resolve(name, in: s.t.library).resolve(
                    with: s.updater, title: nil)
            else { throw TestSupportError("\(name) did not name the feed") }
            switch outcome {
            case .refreshed(let again, _), .unchanged(let again): #expect(again.id == feed.id, "\(name)")
            default: Issue.record("\(name): \(outcome)")
            }
        }
        #expect(try s.t.library.subscriptions().count == 1)
    }

    /// An audio URL makes an episode of its own, once: the second fetch finds it (and so would
    /// not forget it when its download fails). A listed episode's number names it too.
    @Test func anAudioURLMakesOneEpisodeWhichItsNumberAlsoNames() throws {
        let s = try FeedUpdaterTests.Shelf()
        let url = s.t.url("talk-12.mp3")
        guard
            case .episode(let made, madeHere: true) = try FetchTarget.resolve(url, in: s.t.library).resolve(
                with: s.updater, title: nil)
        else { throw TestSupportError("no episode was made") }
        #expect(made.title == "talk-12")
        for name in [url, "\(made.id)"] {
            guard
                case .episode(let found, madeHere: false) = try FetchTarget.resolve(name, in: s.t.library).resolve(
                    with: s.updater, title: "ignored")
            else { throw TestSupportError("\(name) did not find the episode") }
            #expect(found.id == made.id)
        }
        #expect(try s.t.library.episodes().count == 1)
        #expect(try s.t.gets("talk-12.mp3").isEmpty, "an audio URL needs no look before its download")
    }

    @Test func whatIsNeitherAURLNorANamePodcliKnowsIsSaidSo() throws {
        let s = try FeedUpdaterTests.Shelf()
        #expect(throws: DownloadError.invalidURL("7")) { try FetchTarget.resolve("7", in: s.t.library) }
        #expect(throws: DownloadError.self) { try FetchTarget.resolve("ftp://example.com/x.mp3", in: s.t.library) }
    }
}
