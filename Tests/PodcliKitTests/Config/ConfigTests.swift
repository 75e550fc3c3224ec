import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// Which feed a `[feed "NAME"]` section means (`FeedReference`'s rule: its number, its URL, or a
/// part of its title only one feed's title contains, ignoring case) and the policy each feed gets.
@Suite struct ConfigTests {
    static let titles = ["Daily News", "Other Show", "Weekly Roundup", "News"]

    @Test func aSectionNamesItsFeedByNumberURLOrAUniquePartOfItsTitle() throws {
        let c = try ConfigFixture(feeds: Self.titles)
        let config = try c.read(
            """
            [feed "2"]
            [feed "\(ConfigFixture.url(3))"]
            [feed "DAILY"]
            [feed "news"]
            [feed "o"]
            [feed "Nightly"]
            [feed "  "]
            """)
        let found = config.sections(among: try c.feeds).map { section, feed in
            switch feed {
            case .success(let feed): return "\(section.name) → #\(feed.id)"
            case .failure(.ambiguousFeed(_, let titles)): return "\(section.name) → \(titles.sorted())"
            case .failure(let error): return "\(section.name) → \(error)"
            }
        }
        #expect(
            found == [
                "2 → #2", "\(ConfigFixture.url(3)) → #3", "DAILY → #1",
                // A title that is exactly what was written wins over those that contain it.
                "news → #4",
                "o → [\"Other Show\", \"Weekly Roundup\"]",
                "Nightly → \(StoreError.feedNotFound("Nightly"))", "   → \(StoreError.feedNotFound("  "))",
            ])
    }

    @Test func eachFeedGetsTheGlobalPolicyWithItsSectionsOverItInTheFilesOrder() throws {
        let c = try ConfigFixture(feeds: Self.titles)
        let config = try c.read(
            """
            download = all
            keep = 2
            max-age = 30
            [feed "Daily"]
            keep = 1
            [feed "Other"]
            download = none
            [feed "1"]
            max-size = 10M
            keep = 5
            [feed "Nightly"]
            keep = 9
            """)
        let policies = config.policies(of: try c.feeds)
        #expect(policies[1] == EpisodePolicy(download: .all, keep: 5, maxAgeDays: 30, maxSize: 10 << 20))
        #expect(policies[2] == EpisodePolicy(download: .none, keep: 2, maxAgeDays: 30))
        #expect(policies[3] == config.policy && policies[4] == config.policy)
        #expect(config.policy == EpisodePolicy(download: .all, keep: 2, maxAgeDays: 30))
    }

    @Test func episodesPlayWithTheirFeedsListeningSettingsAndTheCommandLineOverThem() throws {
        let c = try ConfigFixture(feeds: Self.titles)
        let config = try c.read(
            "speed = 1.25\nloudness = -16\n[feed \"Daily\"]\nspeed = 2\nskip-silence = mild\n[feed \"Other\"]\nloudness = off\n"
        )
        var listening = Listening(config: config, feeds: try c.feeds)
        #expect(listening.settings(forFeed: 1).speed == 2 && listening.settings(forFeed: 1).skipSilence == .mild)
        #expect(listening.settings(forFeed: 1).loudness == .lufs(-16))
        #expect(listening.settings(forFeed: 2).speed == 1.25 && listening.settings(forFeed: 2).loudness == .off)
        #expect(listening.settings(forFeed: nil).speed == 1.25 && listening.settings(forFeed: nil).skipSilence == .off)
        listening.speed = 0.75
        listening.loudness = .off
        #expect(listening.settings(forFeed: 1).speed == 0.75 && listening.settings(forFeed: 1).skipSilence == .mild)
        #expect(listening.settings(forFeed: nil).loudness == .off)
    }

    /// `skip-intro` and `skip-outro` are per feed like `keep`: a feed's section over the global one.
    @Test func skipIntroAndOutroAreTheFeedsOverTheGlobalOnes() throws {
        let c = try ConfigFixture(feeds: Self.titles)
        let config = try c.read("skip-intro = 10\n[feed \"Daily\"]\nskip-intro = 30\nskip-outro = 15\n")
        let listening = Listening(config: config, feeds: try c.feeds)
        #expect(listening.settings(forFeed: 1).skipIntro == 30 && listening.settings(forFeed: 1).skipOutro == 15)
        #expect(listening.settings(forFeed: 2).skipIntro == 10 && listening.settings(forFeed: 2).skipOutro == 0)
        #expect(listening.settings(forFeed: nil).skipIntro == 10)
        #expect(throws: ConfigValue.Problem.self) { try Setting.skipOutro.check("-5", inFeedSection: true) }
        #expect(throws: ConfigValue.Problem.self) { try Setting.skipIntro.check("3601", inFeedSection: false) }
    }

    /// The issue's case: `config get keep --feed 3` must see the `[feed "My Show"]` section that
    /// `sync` applies to feed 3, whatever names the feed on either side.
    @Test func theSettingShownForAFeedIsTheOneSyncApplies() throws {
        let c = try ConfigFixture(feeds: ["Daily News", "Other Show", "My Show"])
        let config = try c.read("keep = 7\n[feed \"My Show\"]\nkeep = 3\ndelete-played-after = 0\n")
        let feeds = try c.feeds
        for name in ["3", "my show", "MY", ConfigFixture.url(3)] {
            let feed = try FeedReference.match(name, in: feeds)
            let policy = config.policy(for: feed, among: feeds)
            #expect(policy == config.policies(of: feeds)[3], "\(name)")
            #expect(Setting.keep.value(in: config, policy: policy) == "3", "\(name)")
            #expect(Setting.deletePlayedAfter.value(in: config, policy: policy) == "0", "\(name)")
        }
        #expect(Setting.keep.value(in: config, policy: config.policy(for: try c.feed(1), among: feeds)) == "7")
        #expect(Setting.keep.value(in: config) == "7")
    }
}
