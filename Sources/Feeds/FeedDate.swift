/// Reads the dates feeds carry (`pubDate`, `dc:date`, Atom `updated`) as Unix seconds in UTC.
///
/// Two shapes are read, by hand over the UTF-8 bytes: `DateFormatter` is slow and depends on the
/// locale, and feeds deviate from both standards in ways it refuses.
///
/// - RFC 822/1123 as found in feeds: `Sat, 20 Jan 2018 10:00:00 +0100`. The weekday is ignored
///   (feeds get it wrong or leave it out); the day has one or two digits; the month is an English
///   name in any case, abbreviated to at least three letters (`Jan`, `Sept`, `March`); `-` may
///   separate day, month and year (RFC 850); two-digit years below 50 are 20xx, others 19xx;
///   seconds and the whole time may be left out (midnight); extra spaces and commas are skipped;
///   a trailing `(comment)` is ignored.
/// - ISO 8601 / RFC 3339: `2018-01-20T10:00:00+01:00`, `Z`, fractional seconds (dropped), a space
///   for `T`, seconds left out, or the date alone (midnight UTC).
///
/// Zones: `+hhmm`, `-hhmm`, `+hh:mm`, `+hh`, optionally after `GMT`/`UTC` (`GMT+01:00`), or a
/// name from the table below. A missing zone is UTC. Any other name of one to five letters is
/// ignored as UTC: a date a few hours off sorts and shows better than no date at all. That covers
/// the military letters, which RFC 2822 says to read as -0000 because RFC 822 had their signs
/// backwards.
///
/// | zone | offset | zone | offset | zone | offset |
/// |---|---|---|---|---|---|
/// | GMT UT UTC Z WET | 0 | EST | -5 | EDT | -4 |
/// | CST | -6 | CDT | -5 | MST | -7 |
/// | MDT | -6 | PST | -8 | PDT | -7 |
/// | AKST | -9 | AKDT | -8 | HST | -10 |
/// | AST | -4 | ADT | -3 | NST | -3:30 |
/// | NDT | -2:30 | BRT ART | -3 | BST CET MET WEST | +1 |
/// | CEST MEST EET SAST CAT | +2 | EEST MSK EAT | +3 | IST (India) | +5:30 |
/// | PKT | +5 | ICT WIB | +7 | AWST SGT HKT PHT | +8 |
/// | JST KST | +9 | ACST | +9:30 | AEST | +10 |
/// | ACDT | +10:30 | AEDT | +11 | NZST | +12 |
/// | NZDT | +13 | | | | |
///
/// Anything else is nil: an empty or unreadable string, a month not in English, a day the month
/// doesn't have, an hour above 23, a minute above 59, a second above 60, or text left over.
public enum FeedDate: Sendable {
    /// The instant `text` names, in seconds since 1970-01-01T00:00:00Z, or nil if it can't be read.
    public static func parse(_ text: String) -> Int64? {
        if let result = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0) }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var cursor = ByteCursor(bytes)
        cursor.skip(where: isSpace)
        guard !cursor.atEnd else { return nil }
        if cursor.looksLikeISODate {
            return parseISO(&cursor)
        }
        return parseRFC822(&cursor)
    }

    // MARK: - ISO 8601 / RFC 3339

    private static func parseISO(_ cursor: inout ByteCursor) -> Int64? {
        guard let year = cursor.number(digits: 4...4), cursor.take(UInt8(ascii: "-")),
            let month = cursor.number(digits: 2...2), cursor.take(UInt8(ascii: "-")),
            let day = cursor.number(digits: 2...2)
        else { return nil }
        var time = (hour: 0, minute: 0, second: 0)
        var offset = 0
        // A space may stand for the `T` (RFC 3339 section 5.6 allows it), but only before a time.
        let separator = cursor.peek
        if separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
            || (separator == UInt8(ascii: " ") && cursor.peek(at: 1).map(isDigit) == true)
        {
            cursor.advance()
            guard let parsed = parseTime(&cursor) else { return nil }
            time = parsed
            cursor.skip(where: isSpace)
            if !cursor.atEnd {
                guard let zone = parseZone(&cursor) else { return nil }
                offset = zone
            }
        }
        cursor.skip(where: isSpace)
        guard cursor.atEnd else { return nil }
        return timestamp(year: year, month: month, day: day, time: time, offset: offset)
    }

    // MARK: - RFC 822 / 1123

    private static func parseRFC822(_ cursor: inout ByteCursor) -> Int64? {
        // The weekday: ignored, even when wrong or misspelled ("Tues", "Thurs.").
        if cursor.peek.map(isLetter) == true {
            cursor.skip(where: isLetter)
            cursor.take(UInt8(ascii: "."))
            cursor.skip(where: isSeparator)
        }
        guard let day = cursor.number(digits: 1...2) else { return nil }
        cursor.skip(where: isDateSeparator)
        guard let month = parseMonth(&cursor) else { return nil }
        cursor.skip(where: isDateSeparator)
        guard let yearDigits = cursor.digitCount(), yearDigits == 2 || yearDigits == 4,
            var year = cursor.number(digits: yearDigits...yearDigits)
        else { return nil }
        if yearDigits == 2 { year += year < 50 ? 2000 : 1900 }

        var time = (hour: 0, minute: 0, second: 0)
        var offset = 0
        cursor.skip(where: isSeparator)
        if cursor.peek.map(isDigit) == true {
            guard let parsed = parseTime(&cursor) else { return nil }
            time = parsed
            cursor.skip(where: isSeparator)
        }
        if !cursor.atEnd, cursor.peek != UInt8(ascii: "(") {
            guard let zone = parseZone(&cursor) else { return nil }
            offset = zone
            cursor.skip(where: isSeparator)
        }
        // A trailing comment such as "(EST)" after a numeric zone.
        if cursor.take(UInt8(ascii: "(")) {
            cursor.skip(where: { $0 != UInt8(ascii: ")") })
            guard cursor.take(UInt8(ascii: ")")) else { return nil }
            cursor.skip(where: isSeparator)
        }
        guard cursor.atEnd else { return nil }
        return timestamp(year: year, month: month, day: day, time: time, offset: offset)
    }

    /// English month names, lowercased; a name matches when it is at least three letters long and
    /// a prefix of one of these ("Sep", "Sept", "September").
    private static let monthNames: [[UInt8]] = [
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ].map { Array($0.utf8) }

    private static func parseMonth(_ cursor: inout ByteCursor) -> Int? {
        let word = cursor.span(where: isLetter)
        guard word.count >= 3 else { return nil }
        cursor.take(UInt8(ascii: "."))
        for (index, name) in monthNames.enumerated() where word.count <= name.count {
            var matches = true
            for offset in 0..<word.count where word[offset] | 0x20 != name[offset] {
                matches = false
                break
            }
            if matches { return index + 1 }
        }
        return nil
    }

    // MARK: - Time and zone

    /// `H:MM`, `HH:MM:SS` or `HH:MM:SS.fff` (the fraction is dropped).
    private static func parseTime(_ cursor: inout ByteCursor) -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = cursor.number(digits: 1...2), cursor.take(UInt8(ascii: ":")),
            let minute = cursor.number(digits: 2...2)
        else { return nil }
        var second = 0
        if cursor.take(UInt8(ascii: ":")) {
            guard let parsed = cursor.number(digits: 2...2) else { return nil }
            second = parsed
            // A fraction, after "." or ISO's ","; a comma before anything else is a separator.
            if cursor.peek == UInt8(ascii: ".")
                || (cursor.peek == UInt8(ascii: ",") && cursor.peek(at: 1).map(isDigit) == true)
            {
                cursor.advance()
                guard cursor.peek.map(isDigit) == true else { return nil }
                cursor.skip(where: isDigit)
            }
        }
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        return (hour, minute, second)
    }

    /// The zone's offset east of UTC in seconds.
    private static func parseZone(_ cursor: inout ByteCursor) -> Int? {
        if cursor.peek.map(isLetter) == true {
            let name = cursor.span(where: isLetter)
            guard name.count <= 5 else { return nil }
            let known = namedOffset(name)
            // "GMT+01:00", "UTC-5": a name that is only a base for a numeric offset.
            if known == 0, cursor.peek == UInt8(ascii: "+") || cursor.peek == UInt8(ascii: "-") {
                return parseNumericZone(&cursor)
            }
            return known ?? 0
        }
        return parseNumericZone(&cursor)
    }

    /// `+hhmm`, `-hhmm`, `+hh:mm` or `+hh`.
    private static func parseNumericZone(_ cursor: inout ByteCursor) -> Int? {
        let sign: Int
        if cursor.take(UInt8(ascii: "+")) {
            sign = 1
        } else if cursor.take(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return nil
        }
        let hours: Int
        var minutes = 0
        switch cursor.digitCount() {
        case 4:
            hours = cursor.fixed(2)
            minutes = cursor.fixed(2)
        case 2:
            hours = cursor.fixed(2)
            if cursor.take(UInt8(ascii: ":")) {
                guard let parsed = cursor.number(digits: 2...2) else { return nil }
                minutes = parsed
            }
        case 1:
            hours = cursor.fixed(1)
        default:
            return nil
        }
        guard hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func namedOffset(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        // Pack up to five letters, uppercased, into one integer: no String is made per date.
        var key: UInt64 = 0
        for byte in name { key = key << 8 | UInt64(byte & ~0x20) }
        switch key {
        case zoneKey("GMT"), zoneKey("UT"), zoneKey("UTC"), zoneKey("Z"), zoneKey("WET"): return 0
        case zoneKey("EST"), zoneKey("CDT"): return -5 * 3600
        case zoneKey("EDT"), zoneKey("AST"): return -4 * 3600
        case zoneKey("CST"), zoneKey("MDT"): return -6 * 3600
        case zoneKey("MST"), zoneKey("PDT"): return -7 * 3600
        case zoneKey("PST"), zoneKey("AKDT"): return -8 * 3600
        case zoneKey("AKST"): return -9 * 3600
        case zoneKey("HST"): return -10 * 3600
        case zoneKey("ADT"), zoneKey("BRT"), zoneKey("ART"): return -3 * 3600
        case zoneKey("NST"): return -(3 * 3600 + 1800)
        case zoneKey("NDT"): return -(2 * 3600 + 1800)
        case zoneKey("BST"), zoneKey("CET"), zoneKey("MET"), zoneKey("WEST"): return 3600
        case zoneKey("CEST"), zoneKey("MEST"), zoneKey("EET"), zoneKey("SAST"), zoneKey("CAT"): return 2 * 3600
        case zoneKey("EEST"), zoneKey("MSK"), zoneKey("EAT"): return 3 * 3600
        case zoneKey("PKT"): return 5 * 3600
        case zoneKey("IST"): return 5 * 3600 + 1800
        case zoneKey("ICT"), zoneKey("WIB"): return 7 * 3600
        case zoneKey("AWST"), zoneKey("SGT"), zoneKey("HKT"), zoneKey("PHT"): return 8 * 3600
        case zoneKey("JST"), zoneKey("KST"): return 9 * 3600
        case zoneKey("ACST"): return 9 * 3600 + 1800
        case zoneKey("AEST"): return 10 * 3600
        case zoneKey("ACDT"): return 10 * 3600 + 1800
        case zoneKey("AEDT"): return 11 * 3600
        case zoneKey("NZST"): return 12 * 3600
        case zoneKey("NZDT"): return 13 * 3600
        default: return nil
        }
    }

    private static func zoneKey(_ name: StaticString) -> UInt64 {
        var key: UInt64 = 0
        name.withUTF8Buffer { for byte in $0 { key = key << 8 | UInt64(byte) } }
        return key
    }

    // MARK: - Calendar

    private static func timestamp(
        year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int), offset: Int
    ) -> Int64? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second - offset
        return Int64(seconds)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`, http://howardhinnant.github.io/date_algorithms.html).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    // MARK: - Byte classes

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    private static func isSeparator(_ byte: UInt8) -> Bool { isSpace(byte) || byte == UInt8(ascii: ",") }
    private static func isDateSeparator(_ byte: UInt8) -> Bool { isSeparator(byte) || byte == UInt8(ascii: "-") }

    /// A read position in a UTF-8 buffer; the buffer outlives it (it lives only inside `parse`).
    private struct ByteCursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { peek(at: 0) }

        func peek(at offset: Int) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        /// `YYYY-`: four digits then a dash, which no RFC 822 date starts with.
        var looksLikeISODate: Bool {
            bytes.count - index >= 5 && (0..<4).allSatisfy { FeedDate.isDigit(bytes[index + $0]) }
                && bytes[index + 4] == UInt8(ascii: "-")
        }

        mutating func advance() { index += 1 }

        @discardableResult
        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func skip(where predicate: (UInt8) -> Bool) {
            while index < bytes.count, predicate(bytes[index]) { index += 1 }
        }

        /// The bytes matching `predicate` from here on, consumed.
        mutating func span(where predicate: (UInt8) -> Bool) -> UnsafeBufferPointer<UInt8> {
            let start = index
            skip(where: predicate)
            return UnsafeBufferPointer(rebasing: bytes[start..<index])
        }

        /// How many digits follow, without consuming them; nil when none do.
        func digitCount() -> Int? {
            var end = index
            while end < bytes.count, FeedDate.isDigit(bytes[end]) { end += 1 }
            return end > index ? end - index : nil
        }

        /// The next `count` bytes, known to be digits, as a number.
        mutating func fixed(_ count: Int) -> Int {
            var value = 0
            for _ in 0..<count {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }

        /// A decimal number of a length in `digits`, consumed; nil if the run of digits here is
        /// shorter or longer (so "123" is not read as a two-digit day).
        mutating func number(digits: ClosedRange<Int>) -> Int? {
            guard let count = digitCount(), digits.contains(count) else { return nil }
            return fixed(count)
        }
    }
}
