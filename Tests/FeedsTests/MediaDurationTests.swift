import Testing

@testable import Feeds

@Suite struct MediaDurationTests {
    @Test(arguments: [
        ("3600", 3600.0),
        ("1014.708375", 1014.708375),
        ("0.5", 0.5),
        ("7:04", 424),
        ("07:04", 424),
        ("61:08", 3668),
        ("0:30", 30),
        ("1:02:03", 3723),
        ("01:02:03", 3723),
        ("123:00:00", 442_800),
        ("1:02:03.5", 3723.5),
        ("7:04.25", 424.25),
        (" 3600 ", 3600),
        ("\n\t1:02:03\r\n", 3723),
        ("0000042", 42),
    ])
    func readsDurations(text: String, expected: Double) {
        #expect(MediaDuration.seconds(text) == expected)
    }

    @Test(arguments: [
        "", "   ", "0", "0:00", "00:00:00", "0.0",
        "-5", "-1:00", "+5", "abc", "1h", "5 min", "PT1H2M", "1e3", "1,5", "1 000",
        "1::2", ":30", "30:", "1:2:3:4", "1:02:03:04.5",
        "1.5:00", "1:02.5:03", "1.", ".5", "1..5", "1.2.3", "1:75", "1:60:00", "1:02:60",
        String(repeating: "9", count: 400),
    ])
    func rejectsWhatIsNotADuration(text: String) {
        #expect(MediaDuration.seconds(text) == nil)
    }

    /// Over a year is a mistake, and the largest would not fit the milliseconds podcli stores.
    @Test(arguments: ["100000000000000000", "8785:00:00", "31622401", "100000000000000000000"])
    func rejectsMoreThanAYear(text: String) {
        #expect(MediaDuration.seconds(text) == nil)
        #expect(MediaDuration.offset(text) == nil)
        #expect(MediaDuration.seconds("8784:00:00") == 31_622_400)
    }

    /// Podlove Simple Chapters `start` values, where the first chapter is at zero.
    @Test(arguments: [
        ("0", 0.0),
        ("00:00:00", 0),
        ("01", 1),
        ("01:02", 62),
        ("01:02:03", 3723),
        ("01:02:03.400", 3723.4),
        ("00:00:00.000", 0),
    ])
    func offsetsAllowZero(text: String, expected: Double) {
        #expect(MediaDuration.offset(text) == expected)
    }

    @Test func offsetRejectsWhatSecondsRejectsExceptZero() {
        for text in ["", "-1", "abc", "1::2", "1:2:3:4"] {
            #expect(MediaDuration.offset(text) == nil, "\(text)")
        }
    }

    @Test func decimalsAreTheDoublesTheirLiteralsAre() {
        // Digit-by-digit summing would land a bit away from the literal.
        #expect(MediaDuration.seconds("0.1") == 0.1)
        #expect(MediaDuration.seconds("2.675") == 2.675)
        #expect(MediaDuration.seconds("123456.789012") == 123_456.789012)
    }

    @Test func veryLongNumbersAreReadOrRejectedNeverOverflowed() {
        #expect(MediaDuration.seconds("12345678901234567890123") == nil)
        #expect(MediaDuration.seconds("1." + String(repeating: "0", count: 400) + "1") == 1)
        #expect(MediaDuration.seconds(String(repeating: "9", count: 400) + ".5") == nil)
    }
}
