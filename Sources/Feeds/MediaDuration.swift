/// Reads the lengths and positions feeds write as text: `itunes:duration` and the `start` of
/// Podlove Simple Chapters.
///
/// Accepted: a plain number of seconds (`3600`, `1014.708375`), `M:SS`/`MM:SS` (`7:04`), and
/// `H:MM:SS`/`HH:MM:SS` (`1:02:03`). The first field may be any size (`61:08` is 3668 s, as feeds
/// write it); the later ones must be below 60, which rejects shapes that are probably something
/// else (`1:75`). Only the last field may have a fraction (`1:02:03.5`). Surrounding whitespace
/// is ignored. Signs, exponents, empty fields (`1::2`), more than three fields and any other
/// character make the text unreadable, and so does anything over a year.
public enum MediaDuration: Sendable {
    /// A duration in seconds, or nil when unreadable or zero: a zero duration says nothing.
    public static func seconds(_ text: String) -> Double? {
        guard let value = offset(text), value > 0 else { return nil }
        return value
    }

    /// A position in seconds, where zero is meaningful (the first chapter starts at "0").
    public static func offset(_ text: String) -> Double? {
        if let result = text.utf8.withContiguousStorageIfAvailable({ offset(bytes: $0) }) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer { offset(bytes: $0) }
    }

    private static func offset(bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }

        var total = 0.0
        var fields = 0
        var fieldStart = start
        while fieldStart <= end {
            var fieldEnd = fieldStart
            while fieldEnd < end, bytes[fieldEnd] != UInt8(ascii: ":") { fieldEnd += 1 }
            fields += 1
            let isLast = fieldEnd == end
            guard fields <= 3,
                let value = number(UnsafeBufferPointer(rebasing: bytes[fieldStart..<fieldEnd]), fraction: isLast)
            else { return nil }
            if fields > 1, value >= 60 { return nil }
            total = total * 60 + value
            fieldStart = fieldEnd + 1
        }
        return total.isFinite && total <= maximum ? total : nil
    }

    /// A year: no episode is longer, and anything larger (`100000000000000000`) is a mistake that
    /// would not even fit the milliseconds podcli stores.
    static let maximum = 366.0 * 24 * 3600

    /// Digits, then (when `fraction` allows) a dot and more digits; nil for anything else.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, fraction: Bool) -> Double? {
        // Gathered as an integer and one division, so "1014.708375" is exactly the Double that
        // literal is; summing digit by digit would drift in the last bits.
        var mantissa: UInt64 = 0
        var approximate = 0.0
        var exact = true
        var integerDigits = 0
        var fractionDigits = 0
        var seenDot = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard fraction, !seenDot, integerDigits > 0 else { return nil }
                seenDot = true
                continue
            }
            guard isDigit(byte) else { return nil }
            let digit = UInt64(byte - UInt8(ascii: "0"))
            if seenDot {
                // Digits past the 18th decimal place are below a Double's precision for any length.
                guard fractionDigits < 18 else { continue }
                fractionDigits += 1
            } else {
                integerDigits += 1
            }
            approximate = approximate * 10 + Double(digit)
            let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { exact = false }
            mantissa = sum
        }
        guard integerDigits > 0, !seenDot || fractionDigits > 0 else { return nil }
        let scale = power(ofTen: fractionDigits)
        if exact, mantissa < 1 << 53, fractionDigits <= 22 {
            return Double(mantissa) / scale
        }
        return approximate / scale
    }

    private static func power(ofTen exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}
