import FoundationEssentials

/// Times as gpodder.net-API servers write them. Going up: UTC `YYYY-MM-DDTHH:MM:SS`, the form
/// mygpo documents and AntennaPod parses (`yyyy-MM-dd'T'HH:mm:ss`, UTC). Coming down, any ISO
/// 8601 form a server or another client left: a `T` or a space, seconds or not, fractions
/// (dropped), `Z` or an offset (`+02:00`, `+0200`, `+02`), or no zone, which mygpo means as UTC.
public enum SyncTimestamp {
    /// `unix` (seconds since 1970, UTC) as `YYYY-MM-DDTHH:MM:SS`.
    public static func format(_ unix: Int) -> String {
        let parts = utc.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(unix)))
        func digits(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(parts.year, 4))-\(digits(parts.month, 2))-\(digits(parts.day, 2))T"
            + "\(digits(parts.hour, 2)):\(digits(parts.minute, 2)):\(digits(parts.second, 2))"
    }

    /// The Unix seconds of an ISO 8601 date and time, or nil when `text` is not one.
    public static func parse(_ text: String) -> Int? {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipSpaces()
        guard let year = scanner.number(digits: 4), scanner.take("-"), let month = scanner.number(digits: 2),
            scanner.take("-"), let day = scanner.number(digits: 2)
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
        // The calendar rolls 30 February over into March: a date that does not come back as it
        // went in does not exist.
        let date = DateComponents(year: year, month: month, day: day)
        guard let midnight = utc.date(from: date),
            utc.dateComponents([.year, .month, .day], from: midnight) == date
        else { return nil }
        return Int(midnight.timeIntervalSince1970) + secondOfDay - offset
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

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
