import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// `config get|set|unset KEY [--feed NAME]`: the key is checked, the feed is named by the rule
/// every command uses, and a value is read and written where `sync` applies it.
@Suite struct SettingReferenceTests {
    /// A feed section written with the feed's title is the one `get --feed NUMBER` reads: the
    /// section `sync` applies to feed 2.
    @Test func getWithAFeedNumberReadsTheSectionNamedByTitle() throws {
        let c = try ConfigFixture(feeds: ConfigTests.titles)
        let config = try c.read("keep = 7\n[feed \"Other Show\"]\nkeep = 3\n")
        let byNumber = try SettingReference(key: "keep", feed: "2", among: { try c.feeds })
        #expect(byNumber.value(in: config) == "3")
        #expect(
            byNumber.value(in: config) == config.policy(for: try c.feed(2), among: try c.feeds).keep.map(String.init))
        // The file's value for every other feed, and for the library.
        #expect(try SettingReference(key: "keep", feed: "weekly", among: { try c.feeds }).value(in: config) == "7")
        #expect(try SettingReference(key: "keep", feed: nil, among: { try c.feeds }).value(in: config) == "7")
    }

    @Test func setWritesTheFeedsSectionAndUnsetRemovesIt() throws {
        let c = try ConfigFixture(feeds: ConfigTests.titles)
        _ = try c.read("# mine\n[feed \"\(ConfigFixture.url(3))\"]\ndownload = all\n")
        var file = ConfigFile(path: c.path)
        let weekly = try SettingReference(key: "keep", feed: "3", among: { try c.feeds })
        try weekly.set(to: "4", in: &file)
        try file.write()
        #expect(try c.text() == "# mine\n[feed \"\(ConfigFixture.url(3))\"]\ndownload = all\nkeep = 4\n")
        #expect(try file.config().policy(for: try c.feed(3), among: try c.feeds).keep == 4)

        // A feed no section names gets one, headed with its title.
        let daily = try SettingReference(key: "keep", feed: "daily", among: { try c.feeds })
        try daily.set(to: "2", in: &file)
        #expect(try file.config().feedSections.last?.name == "Daily News")

        #expect(weekly.unset(in: &file))
        #expect(!weekly.unset(in: &file), "nothing left to remove")
        #expect(try file.config().policy(for: try c.feed(3), among: try c.feeds).keep == nil)
    }

    @Test func aWrongKeyValueOrFeedIsSaidSoAndChangesNothing() throws {
        let c = try ConfigFixture(feeds: ConfigTests.titles)
        #expect {
            try SettingReference(key: "kept", feed: nil, among: { try c.feeds })
        } throws: { error in
            guard case PodcliError.unknownSetting("kept") = error else { return false }
            return true
        }
        #expect {
            try SettingReference(key: "min-free", feed: "2", among: { try c.feeds })
        } throws: { error in
            guard case PodcliError.notPerFeed(setting: "min-free") = error else { return false }
            return true
        }
        // "o" is in several titles; no title has "Nightly".
        #expect(throws: StoreError.self) { try SettingReference(key: "keep", feed: "o", among: { try c.feeds }) }
        #expect(throws: StoreError.feedNotFound("Nightly")) {
            try SettingReference(key: "keep", feed: "Nightly", among: { try c.feeds })
        }

        var file = ConfigFile(path: c.path)
        let keep = try SettingReference(key: "keep", feed: nil, among: { try c.feeds })
        #expect {
            try keep.set(to: "many", in: &file)
        } throws: { error in
            guard case PodcliError.invalidSetting(let setting, let value, _) = error else { return false }
            return setting == "keep" && value == "many"
        }
        #expect(try file.config().policy.keep == nil)
    }

    /// Without `--feed` the library is never opened (`config` works before the first subscribe).
    @Test func noFeedReadsNoSubscriptions() throws {
        let reference = try SettingReference(
            key: "keep", feed: nil, among: { throw TestSupportError("read the feeds") })
        #expect(reference.feed == nil)
    }
}
