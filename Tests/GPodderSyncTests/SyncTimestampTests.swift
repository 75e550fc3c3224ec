import Foundation
import Testing

@testable import GPodderSync

/// Times going up in mygpo's form, and every ISO 8601 form servers and other clients leave read back.
@Suite struct SyncTimestampTests {
    @Test func formatIsUTCWithSecondsAndNoZone() {
        #expect(SyncTimestamp.format(0) == "1970-01-01T00:00:00")
        #expect(SyncTimestamp.format(1_767_323_045) == "2026-01-02T03:04:05")
        #expect(SyncTimestamp.format(951_782_400) == "2000-02-29T00:00:00")  // a leap day
        #expect(SyncTimestamp.format(-1) == "1969-12-31T23:59:59")
    }

    /// Every second of four years (in steps) goes round the trip, checked against Foundation's formatter.
    @Test func formatAgreesWithFoundationAndParseReadsItBack() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        for unix in stride(from: 946_684_800 - 86_400 * 400, to: 4_102_444_800, by: 86_400 * 7 + 3_607) {
            let text = SyncTimestamp.format(unix)
            #expect(text == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix))))
            #expect(SyncTimestamp.parse(text) == unix)
        }
    }

    @Test func parseReadsZonesFractionsAndShortForms() {
        let moment = 1_767_323_045  // 2026-01-02T03:04:05Z
        for text in [
            "2026-01-02T03:04:05", "2026-01-02T03:04:05Z", "2026-01-02T03:04:05.999Z", "2026-01-02T05:04:05+02:00",
            "2026-01-02T05:04:05.250+0200", "2026-01-01T22:04:05-05", "2026-01-02 03:04:05", "2026-01-02t03:04:05z",
            " 2026-01-02T03:04:05,5 ", "2026-01-02T03:04:05.123456+00:00",
        ] {
            #expect(SyncTimestamp.parse(text) == moment, "\(text)")
        }
        #expect(SyncTimestamp.parse("2026-01-02T03:04") == moment - 5)  // no seconds
        #expect(SyncTimestamp.parse("2026-01-02T03:04+01:00") == moment - 5 - 3600)
        #expect(SyncTimestamp.parse("2026-01-02") == moment - 3 * 3600 - 4 * 60 - 5)
        #expect(SyncTimestamp.parse("2016-12-31T23:59:60Z") == SyncTimestamp.parse("2016-12-31T23:59:59Z"))
    }

    @Test func parseRefusesWhatIsNotADate() {
        for text in [
            "", "yesterday", "2026-13-01T00:00:00", "2026-02-30T00:00:00", "2026-01-02T24:00:00", "2026-01-02T03:60",
            "2026-01-02T03:04:05+25:00", "2026-01-02T03:04:05 junk", "2026-1-2T03:04:05", "2026-01-02T03:04:05.",
            "1767323045",
        ] {
            #expect(SyncTimestamp.parse(text) == nil, "\(text)")
        }
    }
}
