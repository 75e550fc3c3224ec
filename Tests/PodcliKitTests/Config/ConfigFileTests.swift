import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// The configuration file: every mistake named by file and line, and `set`/`unset` changing only
/// the lines they must (comments, blank lines and other sections kept).
@Suite struct ConfigFileTests {
    @Test(arguments: [
        ("jobs = 4\nkeep = three\n", 2, "keep must be a whole number from 1 to 100000 or all, not 'three'"),
        ("colour = blue\n", 1, "unknown key 'colour'"),
        (
            "[feed \"Daily\"]\njobs = 2\n", 2,
            "jobs must be a setting for every feed, not one feed (put it before any [feed] section), not '2'"
        ),
        ("[podcast]\n", 1, "unknown section [podcast] (sections are [feed \"NAME\"])"),
        ("keep = 2\n[feed \"\"]\n", 2, "unknown section [feed \"\"] (sections are [feed \"NAME\"])"),
        ("\n\njust words\n", 3, "expected 'key = value' or '[feed \"NAME\"]'"),
        ("# a comment\n[feed \"Daily\"\n", 2, "expected 'key = value' or '[feed \"NAME\"]'"),
        ("min-free = lots\n", 1, "min-free must be a size such as 500M or 2G, not 'lots'"),
        ("jobs = 0\n", 1, "jobs must be a whole number from 1 to 32, not '0'"),
        ("limit-rate = 100\n", 1, "limit-rate must be a rate of at least 1K (bytes per second), not '100'"),
        ("protection = secret\n", 1, "protection must be private or open, not 'secret'"),
        ("speed = 4\n", 1, "speed must be a speed from 0.5 to 3.0, not '4'"),
        (
            "[feed \"Daily\"]\nskip-silence = lots\n", 2,
            "skip-silence must be off, mild, medium or aggressive, not 'lots'"
        ),
        ("loudness = loud\n", 1, "loudness must be a loudness from -40 to -5 (LUFS), or off, not 'loud'"),
        ("[feed \"Daily\"]\nkeep = 1\ndownload = some\n", 3, "download must be new, all or none, not 'some'"),
        (
            "gpodder-server = ftp://gpodder.net\n", 1,
            "gpodder-server must be an http or https URL without a user or password in it, or none, not "
                + "'ftp://gpodder.net'"
        ),
        (
            "gpodder-server = https://alice@cloud.example\n", 1,
            "gpodder-server must be an http or https URL without a user or password in it, or none, not "
                + "'https://alice@cloud.example'"
        ),
        (
            "gpodder-device = my laptop\n", 1,
            "gpodder-device must be letters, digits, '_', '.' and '-', not 'my laptop'"
        ),
        ("gpodder-device = a/b\n", 1, "gpodder-device must be letters, digits, '_', '.' and '-', not 'a/b'"),
        ("gpodder-api = owncloud\n", 1, "gpodder-api must be gpodder or nextcloud, not 'owncloud'"),
        ("gpodder-link-devices = yes\n", 1, "gpodder-link-devices must be on or off, not 'yes'"),
        ("gpodder-unsubscribe-files = remove\n", 1, "gpodder-unsubscribe-files must be keep or delete, not 'remove'"),
        (
            "[feed \"Daily\"]\ngpodder-user = alice\n", 2,
            "gpodder-user must be a setting for every feed, not one feed (put it before any [feed] section), not "
                + "'alice'"
        ),
    ])
    func everyMistakeIsNamedByTheFileAndLine(text: String, line: Int, problem: String) throws {
        let c = try ConfigFixture()
        #expect {
            try c.read(text)
        } throws: { error in
            guard case PodcliError.config(let location, let found) = error else { return false }
            return location == "\(c.path):\(line)" && found == problem
                && "\(error)" == "\(c.path):\(line): \(problem)"
        }
    }

    @Test func aMissingFileIsTheDefaults() throws {
        let c = try ConfigFixture()
        let config = try Config(path: c.path)
        #expect(config.protection == .private && config.device == nil)
        #expect(config.skipBack == 15 && config.skipForward == 30)
        #expect(config.sync == SyncSettings() && config.policy == EpisodePolicy())
        #expect(config.sync.jobs == 4 && config.sync.minFree == 512 << 20 && config.sync.diskBudget == nil)
        #expect(config.policy.download == .new && config.policy.keep == nil && config.feedSections.isEmpty)
        #expect(config.remote == RemoteSettings() && config.remote.server == nil && config.remote.api == .gpodder)
        #expect(config.remote.linkDevices && config.remote.unsubscribeFiles == .keep)
    }

    @Test func unsetGpodderSettingsReadAsNoneAndTheDeviceIsNamedAfterTheMachine() throws {
        let c = try ConfigFixture()
        let config = try c.read("gpodder-server = none\ngpodder-user =\n")
        #expect(config.remote.server == nil && config.remote.user == nil && config.remote.passwordCommand == nil)
        #expect(Setting.gpodderServer.value(in: config) == "none")
        #expect(Setting.gpodderUser.value(in: config) == "" && Setting.gpodderPasswordCommand.value(in: config) == "")
        let hostname = try String(contentsOfFile: "/proc/sys/kernel/hostname", encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        #expect(Setting.gpodderDevice.value(in: config) == "podcli-" + hostname)
        #expect(RemoteSettings.isDeviceID(config.remote.deviceID))
        // What a device id cannot hold becomes '-'.
        #expect(RemoteSettings.defaultDevice(hostname: "my box (2)") == "podcli-my-box--2-")
        #expect(RemoteSettings.defaultDevice(hostname: "") == "podcli-")
    }

    @Test func everySettingIsReadAndWrittenBackAsTheFileGivesIt() throws {
        let values: [Setting: String] = [
            .protection: "open", .device: "hw:1", .skipBack: "10", .skipForward: "45.5", .jobs: "8",
            .hostConnections: "3", .diskBudget: "20G", .minFree: "1G", .limitRate: "500K", .streamMaxSize: "2G",
            .streamMaxTime: "90m", .download: "all", .keep: "3", .maxAge: "30", .maxSize: "200M",
            .deletePlayedAfter: "0", .speed: "1.75", .skipSilence: "medium", .loudness: "-16",
            .skipIntro: "30", .skipOutro: "15", .directoryURL: "http://127.0.0.1:8080/itunes",
            .podcastIndexURL: "https://pi.example.com/api/1.0", .podcastIndexKey: "UXKCGDSYGUUEVQJSYDZH",
            .podcastIndexSecretCommand: "pass show podcastindex | head -1",
            .gpodderServer: "https://cloud.example/nextcloud",
            .gpodderUser: "alice", .gpodderPasswordCommand: "pass show gpodder | head -n 1",
            .gpodderDevice: "küche_2.0-a",
            .gpodderAPI: "nextcloud", .gpodderLinkDevices: "off", .gpodderUnsubscribeFiles: "delete",
        ]
        #expect(values.count == Setting.allCases.count)
        let c = try ConfigFixture()
        // Spaces around '=' and after the value, as people write them.
        let config = try c.read(Setting.allCases.map { "\($0.rawValue)  =  \(values[$0]!)   " }.joined(separator: "\n"))
        for setting in Setting.allCases { #expect(setting.value(in: config) == values[setting], "\(setting)") }
        #expect(config.sync.limitRate == 500 << 10 && config.sync.streamMaxTime == 5400)
        #expect(config.policy.deletePlayedAfterDays == 0 && config.skipForward == 45.5)
    }

    @Test func commentsAndBlankLinesAreIgnoredAndTheLastLineOfASettingCounts() throws {
        let c = try ConfigFixture()
        let config = try c.read(
            "jobs = 2\n  # jobs = 9\n\n\tjobs = 3\n[feed  \"My Show\" ]\nkeep = 1\n# keep = 4\nkeep = 2\n")
        #expect(config.sync.jobs == 3)
        let section = try #require(config.feedSections.first)
        #expect(config.feedSections.count == 1 && section.name == "My Show" && section.location == "\(c.path):5")
        #expect(section.assignments.map { "\($0.setting.rawValue)=\($0.value)" } == ["keep=1", "keep=2"])
        // Per-feed settings in a section do not change the global policy.
        #expect(config.policy.keep == nil)
    }

    @Test func setChangesTheLineThatCountsAndKeepsTheRestOfTheFile() throws {
        let c = try ConfigFixture(feeds: ["Daily News", "Other Show", "Weekly Roundup"])
        try c.home.write("# my settings\njobs = 2   \n\n[feed \"Daily\"]\nkeep = 1\n", to: "config")
        var file = ConfigFile(path: c.path)
        file.set(.jobs, to: "6", feed: nil)
        file.set(.diskBudget, to: "20G", feed: nil)
        // The feed is named as everywhere: [feed "Daily"] is #1's section, whatever names it here.
        file.set(.keep, to: "3", feed: try c.target("1"))
        file.set(.maxSize, to: "200M", feed: try c.target("other"))
        try file.write()
        #expect(
            try c.text() == """
                # my settings
                jobs = 6
                disk-budget = 20G

                [feed "Daily"]
                keep = 3

                [feed "Other Show"]
                max-size = 200M

                """)
        let config = try Config(path: c.path)
        #expect(config.sync.jobs == 6 && config.sync.diskBudget == 20 << 30)
        #expect(config.policy(for: try c.feed(1), among: try c.feeds).keep == 3)
        #expect(config.policy(for: try c.feed(2), among: try c.feeds).maxSize == 200 << 20)
    }

    @Test func setChangesTheLastSectionNamingTheFeedAndAddsALineWhereNoneGivesIt() throws {
        let c = try ConfigFixture(feeds: ["Daily News", "Other Show"])
        try c.home.write("[feed \"Daily\"]\nkeep = 1\n\n[feed \"1\"]\nmax-age = 9\n\n# the end\n", to: "config")
        var file = ConfigFile(path: c.path)
        file.set(.keep, to: "4", feed: try c.target("daily news"))
        file.set(.maxAge, to: "10", feed: try c.target(ConfigFixture.url(1)))
        try file.write()
        #expect(try c.text() == "[feed \"Daily\"]\nkeep = 1\n\n[feed \"1\"]\nmax-age = 10\nkeep = 4\n\n# the end\n")
        // The last section's line is the one that counts.
        #expect(try c.read(try c.text()).policy(for: try c.feed(1), among: try c.feeds).keep == 4)
    }

    @Test func unsetRemovesTheSettingGloballyOrFromEverySectionNamingTheFeed() throws {
        let c = try ConfigFixture(feeds: ["Daily News", "Other Show"])
        let text =
            "keep = 5\n[feed \"Daily\"]\nkeep = 1\n[feed \"Other\"]\nkeep = 2\n[feed \"1\"]\nkeep = 3\nmax-age = 4\n"
        try c.home.write(text, to: "config")
        var file = ConfigFile(path: c.path)
        let removed = [
            file.unset(.keep, feed: try c.target("daily news")), file.unset(.maxSize, feed: try c.target("1")),
            file.unset(.keep, feed: nil), file.unset(.jobs, feed: nil),
        ]
        #expect(removed == [true, false, true, false])
        try file.write()
        #expect(try c.text() == "[feed \"Daily\"]\n[feed \"Other\"]\nkeep = 2\n[feed \"1\"]\nmax-age = 4\n")
    }

    @Test func writingMakesTheDirectoryReplacesTheFileWholeAndSaysWhyItCannot() throws {
        let c = try ConfigFixture()
        var file = ConfigFile(path: c.home.path + "/podcli/config")
        file.set(.jobs, to: "2", feed: nil)
        try file.write()
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "jobs = 2\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: c.home.path + "/podcli") == ["config"])
        let removed = file.unset(.jobs, feed: nil)
        #expect(removed)
        try file.write()
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "")

        // Its temporary file cannot be made: the file is left as it was, and the error names it.
        try FileManager.default.createDirectory(atPath: file.path + ".tmp", withIntermediateDirectories: true)
        file.set(.jobs, to: "3", feed: nil)
        #expect {
            try file.write()
        } throws: { error in
            guard case PodcliError.configNotWritten(let path, _) = error else { return false }
            return path == file.path && "\(error)".hasPrefix("could not write \(file.path): ")
        }
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "")
    }
}
