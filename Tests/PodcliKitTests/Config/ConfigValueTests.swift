import Testing

@testable import PodcliKit

/// How the configuration writes values: sizes, durations, counts, and back.
@Suite struct ConfigValueTests {
    @Test func sizesAndDurationsReadAndWriteBack() throws {
        #expect(try ConfigValue.size("500M") == 500 << 20)
        #expect(try ConfigValue.size("1.5G") == 3 << 29)
        #expect(try ConfigValue.size("2GiB") == 2 << 30)
        #expect(try ConfigValue.size("700k") == 700 << 10)
        #expect(try ConfigValue.size("123") == 123)
        #expect(throws: ConfigValue.Problem.self) { try ConfigValue.size("-1M") }
        #expect(throws: ConfigValue.Problem.self) { try ConfigValue.size("lots") }
        #expect(ConfigValue.size(3 << 30) == "3G" && ConfigValue.size(1536) == "1536")
        #expect(try ConfigValue.duration("90m") == 5400 && ConfigValue.duration("45") == 45)
        #expect(ConfigValue.duration(10_800) == "3h" && ConfigValue.duration(90) == "90s")
    }

    @Test func countsOffWordsAndWhatEachExpected() throws {
        #expect(try ConfigValue.count("32", in: 1...32) == 32)
        #expect(try ConfigValue.optionalSize("none", off: "none") == nil)
        #expect(try ConfigValue.optionalSize("2K", off: "none") == 2048)
        for (problem, expected) in [
            (
                { () throws(ConfigValue.Problem) in _ = try ConfigValue.count("33", in: 1...32) },
                "a whole number from 1 to 32"
            ),
            (
                { () throws(ConfigValue.Problem) in _ = try ConfigValue.count("x", in: 1...9, or: "all") },
                "a whole number from 1 to 9 or all"
            ),
            (
                { () throws(ConfigValue.Problem) in _ = try ConfigValue.optionalSize("big", off: "none") },
                "a size such as 500M or 2G, or none"
            ),
            ({ () throws(ConfigValue.Problem) in _ = try ConfigValue.duration("0m") }, "a duration such as 90m or 3h"),
        ] {
            do throws(ConfigValue.Problem) {
                try problem()
                Issue.record("accepted; expected \(expected)")
            } catch {
                #expect(error.expected == expected)
            }
        }
    }
}
