#if canImport(Glibc)
    import Glibc
#endif

/// A day as a user types it, `YYYY-MM-DD` (ISO 8601), in local time: the days `list` and `show`
/// print (`Formatting.day`) are local too.
public struct CalendarDay: Equatable, Sendable {
    /// Unix seconds of the day's first second, local midnight.
    public let start: Int

    /// Nil for anything but four digits, two and two separated by dashes naming a real day
    /// (`2025-02-30` is none).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.map(\.count) == [4, 2, 2],
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int32(parts[0]), let month = Int32(parts[1]), let day = Int32(parts[2])
        else { return nil }
        var fields = tm()
        fields.tm_year = year - 1900
        fields.tm_mon = month - 1
        fields.tm_mday = day
        fields.tm_isdst = -1  // whatever summer time says on that day
        let seconds = mktime(&fields)
        // mktime carries a day past the month's end into the next month: such a day is not one.
        guard seconds != -1, fields.tm_year == year - 1900, fields.tm_mon == month - 1, fields.tm_mday == day
        else { return nil }
        start = Int(seconds)
    }
}
