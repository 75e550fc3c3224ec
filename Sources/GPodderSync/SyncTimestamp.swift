/// Times as gpodder.net-API servers write them. Going up: UTC `YYYY-MM-DDTHH:MM:SS`, the form
/// mygpo documents and AntennaPod parses (`yyyy-MM-dd'T'HH:mm:ss`, UTC). Coming down, any ISO
/// 8601 form a server or another client left: a `T` or a space, seconds or not, fractions
/// (dropped), `Z` or an offset (`+02:00`, `+0200`, `+02`), or no zone, which mygpo means as UTC.
public enum SyncTimestamp {
    /// `unix` (seconds since 1970, UTC) as `YYYY-MM-DDTHH:MM:SS`.
    public static func format(_ unix: Int) -> String {
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let seconds = unix - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T"
            + "\(digits(seconds / 3600, 2)):\(digits(seconds / 60 % 60, 2)):\(digits(seconds % 60, 2))"
    }

    /// The Unix seconds of an ISO 8601 date and time, or nil when `text` is not one.
    public static func parse(_ text: String) -> Int? {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipSpaces()
        guard let year = scanner.number(digits: 4), scanner.take("-"), let month = scanner.number(digits: 2),
            scanner.take("-"), let day = scanner.number(digits: 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var secondOfDay = 0
        var offset = 0
        if scanner.take("T") || scanner.take("t") || scanner.take(" ") {
            guard let hour = scanner.number(digits: 2), scanner.take(":"), let minute = scanner.number(digits: 2),
                hour < 24, minute < 60
            else { return nil }
            var second = 0
            if scanner.take(":") {
                guard let value = scanner.number(digits: 2), value <= 60 else { return nil }
                second = min(value, 59)  // a leap second is the second before it
                if scanner.take(".") || scanner.take(",") {
                    guard scanner.skipDigits() > 0 else { return nil }
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            guard let zone = scanner.zoneOffset() else { return nil }
            offset = zone
        }
        scanner.skipSpaces()
        guard scanner.atEnd else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day) * 86_400 + secondOfDay - offset
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil and civil_from_days (proleptic Gregorian calendar).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Reads a timestamp's bytes left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        }

        /// Exactly `digits` decimal digits as a number.
        mutating func number(digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }

        mutating func skipDigits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }

        /// The zone's offset east of UTC in seconds: 0 for none or `Z`, nil for a malformed one.
        mutating func zoneOffset() -> Int? {
            if take("Z") || take("z") { return 0 }
            let sign: Int
            if take("+") {
                sign = 1
            } else if take("-") {
                sign = -1
            } else {
                return 0
            }
            guard let hours = number(digits: 2), hours < 24 else { return nil }
            var minutes = 0
            if take(":") {
                guard let value = number(digits: 2) else { return nil }
                minutes = value
            } else if let value = number(digits: 2) {
                minutes = value
            }
            guard minutes < 60 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
