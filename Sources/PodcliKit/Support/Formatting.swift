import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// Sizes, durations and times the way people read them.
public enum Formatting {
    /// 1536 → "1.5 KiB".
    public static func bytes(_ count: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : oneDecimal(value) + " " + units[unit]
    }

    /// 3725 → "1:02:05", 65 → "1:05".
    public static func duration(seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = seconds / 60 % 60
        let rest = seconds % 60
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    /// 1.25 → "1.2": one decimal, rounded as printf's "%.1f" rounds (the exact binary value, ties
    /// to even), which Double's own description can't do.
    public static func oneDecimal(_ value: Double) -> String {
        withVaList([value]) { arguments in
            var buffer = [CChar](repeating: 0, count: 330)  // the longest Double has 309 digits before the point
            let length = Int(vsnprintf(&buffer, buffer.count, "%.1f", arguments))
            return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// `text` right-aligned in `width` characters: printf's "%3d" when `pad` is a space.
    public static func rightAligned(_ text: String, width: Int, pad: Character = " ") -> String {
        String(repeating: pad, count: max(0, width - text.count)) + text
    }

    /// printf's "%02d": 5 → "05", 42 → "42".
    private static func twoDigits(_ number: Int) -> String {
        rightAligned("\(number)", width: 2, pad: "0")
    }

    /// `text` followed by spaces up to `width` characters: a table cell, never cut.
    public static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// (1, "episode") → "1 episode", (3, "episode") → "3 episodes" (`Counted`'s rule).
    public static func count(_ count: Int, _ noun: String) -> String { Counted.noun(count, noun) }

    /// Unix seconds → "2024-03-13" (local time).
    public static func day(_ seconds: Int) -> String {
        date(seconds, format: "%Y-%m-%d")
    }

    /// Unix seconds → "2024-03-13 08:15:00" (local time).
    public static func time(_ seconds: Int) -> String {
        date(seconds, format: "%Y-%m-%d %H:%M:%S")
    }

    /// `format` is strftime(3)'s.
    private static func date(_ seconds: Int, format: String) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
