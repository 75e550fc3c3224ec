import Testing

@testable import Feeds

@Suite struct FeedDateTests {
    /// Unix seconds for a UTC date and time, counted day by day: an oracle independent of the
    /// parser's days-from-civil arithmetic.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0)
        -> Int64
    {
        func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
        let monthLengths = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var days = 0
        if year >= 1970 {
            for y in 1970..<year { days += isLeap(y) ? 366 : 365 }
        } else {
            for y in year..<1970 { days -= isLeap(y) ? 366 : 365 }
        }
        days += monthLengths[..<(month - 1)].reduce(0, +) + day - 1
        return Int64(days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    @Test func knownInstants() {
        #expect(FeedDate.parse("Sat, 20 Jan 2018 10:00:00 GMT") == 1_516_442_400)
        #expect(FeedDate.parse("2018-01-20T10:00:00Z") == 1_516_442_400)
        #expect(FeedDate.parse("Tue, 29 Feb 2000 00:00:00 +0000") == 951_782_400)
        #expect(FeedDate.parse("1969-12-31T23:59:59Z") == -1)
        #expect(FeedDate.parse("Mon, 01 Jan 1900 00:00:00 GMT") == -2_208_988_800)
    }

    @Test(arguments: [
        // The standard shape, and the weekday wrong, missing, long, abbreviated oddly or dotted.
        ("Sat, 20 Jan 2018 10:00:00 +0000", utc(2018, 1, 20, 10)),
        ("Mon, 20 Jan 2018 10:00:00 +0000", utc(2018, 1, 20, 10)),
        ("20 Jan 2018 10:00:00 +0000", utc(2018, 1, 20, 10)),
        ("Saturday, 20 Jan 2018 10:00:00 +0000", utc(2018, 1, 20, 10)),
        ("Thurs., 20 Jan 2018 10:00:00 +0000", utc(2018, 1, 20, 10)),
        // One- or two-digit day; month names in any case, full, or abbreviated past three letters.
        ("Fri, 5 Jan 2018 10:00:00 +0000", utc(2018, 1, 5, 10)),
        ("Fri, 05 JAN 2018 10:00:00 +0000", utc(2018, 1, 5, 10)),
        ("Fri, 05 jan 2018 10:00:00 +0000", utc(2018, 1, 5, 10)),
        ("Mon, 5 March 2018 10:00:00 +0000", utc(2018, 3, 5, 10)),
        ("Wed, 5 Sept 2018 10:00:00 +0000", utc(2018, 9, 5, 10)),
        ("Wed, 5 Sep. 2018 10:00:00 +0000", utc(2018, 9, 5, 10)),
        ("Sun, 30 december 2018 23:59:59 +0000", utc(2018, 12, 30, 23, 59, 59)),
        // Seconds, or the whole time, left out.
        ("Sat, 20 Jan 2018 10:00 +0000", utc(2018, 1, 20, 10)),
        ("Sat, 20 Jan 2018 9:05 GMT", utc(2018, 1, 20, 9, 5)),
        ("Sat, 20 Jan 2018", utc(2018, 1, 20)),
        // Missing zone is UTC; a fraction of a second is dropped; a trailing comment is ignored.
        ("Sat, 20 Jan 2018 10:00:00", utc(2018, 1, 20, 10)),
        ("Sat, 20 Jan 2018 10:00:00.750 GMT", utc(2018, 1, 20, 10)),
        ("Sat, 20 Jan 2018 10:00:00 -0500 (EST)", utc(2018, 1, 20, 15)),
        // Two-digit years, and RFC 850's dashes.
        ("Sat, 20 Jan 18 10:00:00 GMT", utc(2018, 1, 20, 10)),
        ("Wed, 20 Jan 49 10:00:00 GMT", utc(2049, 1, 20, 10)),
        ("Fri, 20 Jan 50 10:00:00 GMT", utc(1950, 1, 20, 10)),
        ("Sunday, 20-Jan-99 10:00:00 GMT", utc(1999, 1, 20, 10)),
        // Extra whitespace and commas.
        ("  Sat,  20 Jan 2018   10:00:00   GMT  ", utc(2018, 1, 20, 10)),
        ("Sat,20 Jan 2018 10:00:00 GMT", utc(2018, 1, 20, 10)),
        ("Sat, 20 Jan, 2018, 10:00:00, GMT", utc(2018, 1, 20, 10)),
        ("\tSat, 20 Jan 2018\n10:00:00 GMT\r\n", utc(2018, 1, 20, 10)),
        // A leap day.
        ("Thu, 29 Feb 2024 12:00:00 GMT", utc(2024, 2, 29, 12)),
    ])
    func readsRFC822AsFeedsWriteIt(text: String, expected: Int64) {
        #expect(FeedDate.parse(text) == expected)
    }

    @Test(arguments: [
        ("GMT", 0), ("UT", 0), ("UTC", 0), ("Z", 0), ("gmt", 0),
        ("EST", -5 * 60), ("EDT", -4 * 60), ("CST", -6 * 60), ("CDT", -5 * 60),
        ("MST", -7 * 60), ("MDT", -6 * 60), ("PST", -8 * 60), ("PDT", -7 * 60),
        ("BST", 60), ("CET", 60), ("CEST", 120), ("AEST", 600), ("AEDT", 660), ("IST", 330),
        ("NZDT", 780), ("NST", -210), ("JST", 540),
        ("+0000", 0), ("-0000", 0), ("+0100", 60), ("-0500", -5 * 60), ("+0530", 330), ("+05:30", 330),
        ("-03:30", -210), ("+01", 60), ("+1", 60), ("GMT+0100", 60), ("GMT-05:00", -5 * 60), ("UTC+1", 60),
        // Military letters other than Z are ignored, per RFC 2822; so are unknown names.
        ("A", 0), ("M", 0), ("Y", 0), ("XYZT", 0),
    ])
    func zonesShiftTheInstant(zone: String, minutesEast: Int) {
        let local = Self.utc(2018, 1, 20, 10)
        #expect(FeedDate.parse("Sat, 20 Jan 2018 10:00:00 \(zone)") == local - Int64(minutesEast * 60))
    }

    @Test(arguments: [
        ("2018-01-20T10:00:00+01:00", utc(2018, 1, 20, 9)),
        ("2018-01-20T10:00:00-05:00", utc(2018, 1, 20, 15)),
        ("2018-01-20T10:00:00+0100", utc(2018, 1, 20, 9)),
        ("2018-01-20T10:00:00Z", utc(2018, 1, 20, 10)),
        ("2018-01-20t10:00:00z", utc(2018, 1, 20, 10)),
        ("2018-01-20T10:00:00.123456Z", utc(2018, 1, 20, 10)),
        ("2018-01-20T10:00:00,5Z", utc(2018, 1, 20, 10)),
        ("2018-01-20T10:00Z", utc(2018, 1, 20, 10)),
        ("2018-01-20T10:00:00", utc(2018, 1, 20, 10)),
        ("2018-01-20 10:00:00", utc(2018, 1, 20, 10)),
        ("2018-01-20 10:00:00 +01:00", utc(2018, 1, 20, 9)),
        ("2018-01-20", utc(2018, 1, 20)),
        ("  2018-01-20  ", utc(2018, 1, 20)),
        ("2018-12-31T23:59:60Z", utc(2019, 1, 1)),
        ("2000-02-29T00:00:00Z", utc(2000, 2, 29)),
        ("1970-01-01T00:00:00Z", 0),
    ])
    func readsISO8601(text: String, expected: Int64) {
        #expect(FeedDate.parse(text) == expected)
    }

    @Test(arguments: [
        "", "   ", "garbage", "Sat", "Sat,", "20", "tomorrow at noon",
        // Month names not in English, or not months at all.
        "Σάβ, 20 Ιαν 2018 10:00:00 GMT", "Sa, 20 Mär 2018 10:00:00 GMT", "Sa, 20 Okt 2018 10:00:00 GMT",
        "Sa, 20 Mai 2018 10:00:00 GMT",
        "Sat, 20 Ja 2018 10:00:00 GMT",
        "Sat, 20 Foo 2018 10:00:00 GMT", "Sat, 20 Janvier 2018 10:00:00 GMT",
        // Out of range.
        "Sat, 32 Jan 2018 10:00:00 GMT", "Sat, 0 Jan 2018 10:00:00 GMT", "Thu, 29 Feb 2018 10:00:00 GMT",
        "Sat, 31 Apr 2018 10:00:00 GMT", "Sat, 20 Jan 2018 24:00:00 GMT", "Sat, 20 Jan 2018 10:60:00 GMT",
        "Sat, 20 Jan 2018 10:00:61 GMT", "Sat, 20 Jan 2018 10:00:00 +2400", "Sat, 20 Jan 2018 10:00:00 +0160",
        "2018-13-01", "2018-00-10", "2018-02-30", "2018-01-20T25:00:00Z", "2018-01-20T10:00:00+01:60",
        // Malformed shapes.
        "Sat, 123 Jan 2018 10:00:00 GMT", "Sat, 20 Jan 201 10:00:00 GMT", "Sat, 20 Jan 2018 10 GMT",
        "Sat, 20 Jan 2018 10:0:00 GMT", "Sat, 20 Jan 2018 10:00:00 +01000",
        "Sat, 20 Jan 2018 10:00:00 GMT extra", "Sat, 20 Jan 2018 10:00:00 Pacific", "Sat, 20 Jan 2018 10:00:00 (GMT",
        "2018-1-20", "2018-01-2", "2018-01-20T", "2018-01-20T10", "2018-01-20T10:00:00.Z",
        "2018-01-20T10:00:00+", "2018-01-20 garbage", "2018-01-20T10:00:00Z trailing", "18-01-20",
    ])
    func rejectsWhatItCannotRead(text: String) {
        #expect(FeedDate.parse(text) == nil)
    }

    @Test func daysFromCivilMatchesTheOracleAcrossCenturies() {
        for year in stride(from: 1600, through: 2400, by: 7) {
            for month in [1, 2, 3, 12] {
                let expected = Self.utc(year, month, 1) / 86_400
                #expect(Int64(FeedDate.daysFromCivil(year: year, month: month, day: 1)) == expected)
            }
        }
    }

    @Test func bridgedAndSubstringBackedStringsParse() {
        let text = String("xx2018-01-20T10:00:00Z".dropFirst(2))
        #expect(FeedDate.parse(text) == Self.utc(2018, 1, 20, 10))
    }
}
