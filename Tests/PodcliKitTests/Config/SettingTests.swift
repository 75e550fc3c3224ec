import Testing

@testable import PodcliKit

/// The settings table as completion reads it: the words a type offers are words its setting takes.
@Suite struct SettingTests {
    @Test func theLiteralWordsOfATypeAreItsValuesPlaceholdersAndRangesAreNot() {
        #expect(Setting.skipSilence.literalValues == ["off", "mild", "medium", "aggressive"])
        #expect(Setting.protection.literalValues == ["private", "open"])
        #expect(Setting.loudness.literalValues == ["off"])
        #expect(Setting.diskBudget.literalValues == ["none"])
        #expect(Setting.jobs.literalValues == [])
        #expect(Setting.speed.literalValues == [])
        #expect(Setting.device.literalValues == [])
    }

    /// A value completion offers is one `config set` accepts, globally and, for a per-feed
    /// setting, in a feed section.
    @Test(arguments: Setting.allCases)
    func everyLiteralWordIsAValueTheSettingTakes(setting: Setting) throws {
        for value in setting.literalValues {
            #expect(throws: Never.self, "\(setting.rawValue) = \(value)") {
                try setting.check(value, inFeedSection: false)
            }
            if setting.isPerFeed {
                #expect(throws: Never.self, "[feed] \(setting.rawValue) = \(value)") {
                    try setting.check(value, inFeedSection: true)
                }
            }
        }
    }
}
