#if canImport(Glibc)
    import Glibc
#endif

/// Reads an HTTP date in the one format RFC 9110 lets servers send (section 5.6.7, IMF-fixdate):
/// `Sun, 06 Nov 1994 08:49:37 GMT`. By hand, since FoundationEssentials has no `DateFormatter`.
/// Names are read in any case and the day may have one digit, as `DateFormatter` allowed.
enum HTTPDate {
    /// The instant `text` names, in seconds since 1970-01-01T00:00:00Z, or nil if it is not an
    /// IMF-fixdate or names a day the month doesn't have.
    static func parse(_ text: String) -> Int? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[0].hasSuffix(","), weekdays.contains(fields[0].dropLast().lowercased()),
            let day = number(fields[1], digits: 1...2),
            let month = months.firstIndex(of: fields[2].lowercased()),
            let year = number(fields[3], digits: 4...4),
            fields[5].lowercased() == "gmt"
        else { return nil }
        let clock = fields[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = number(clock[0], digits: 2...2),
            let minute = number(clock[1], digits: 2...2),
            let second = number(clock[2], digits: 2...2), hour < 24, minute < 60, second < 60
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        // timegm normalizes a day the month doesn't have (Feb 31 → Mar 3): refuse that instead.
        guard parts.tm_mday == Int32(day) else { return nil }
        return Int(seconds)
    }

    private static let weekdays: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
