/// How values are written: counts, sizes (`500M`, `2G`: binary multiples), durations (`90m`, `3h`).
public enum ConfigValue {
    /// What a value should have been.
    public struct Problem: Error {
        public let expected: String
        public init(_ expected: String) { self.expected = expected }
    }

    public static func count(_ text: String, in range: ClosedRange<Int>, or word: String? = nil) throws(Problem) -> Int
    {
        guard let count = Int(text), range.contains(count) else {
            throw Problem(
                "a whole number from \(range.lowerBound) to \(range.upperBound)" + (word.map { " or \($0)" } ?? ""))
        }
        return count
    }

    /// An http or https URL (a web API's base).
    public static func webURL(_ text: String) throws(Problem) -> String {
        let lowered = text.lowercased()
        guard ["http://", "https://"].contains(where: { lowered.hasPrefix($0) && lowered.count > $0.count }),
            !text.contains(where: \.isWhitespace)
        else { throw Problem("an http or https URL") }
        return text
    }

    public static let units: [(suffix: Character, bytes: Int)] = [
        ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("T", 1 << 40),
    ]

    /// Bytes from `123`, `700K`, `1.5G`, `2GiB`, `2GB` (all binary, as curl and du read them).
    public static func size(_ text: String) throws(Problem) -> Int {
        var digits = Substring(text.uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits = digits.dropLast(suffix.count) }
        var multiplier = 1
        if let last = digits.last, let unit = units.first(where: { $0.suffix == last }) {
            multiplier = unit.bytes
            digits = digits.dropLast()
        }
        guard let number = Double(digits), number >= 0, number * Double(multiplier) < 1e18 else {
            throw Problem("a size such as 500M or 2G")
        }
        return Int((number * Double(multiplier)).rounded())
    }

    public static func optionalSize(_ text: String, off: String) throws(Problem) -> Int? {
        if text == off { return nil }
        do { return try size(text) } catch { throw Problem("a size such as 500M or 2G, or \(off)") }
    }

    /// Seconds from `45`, `45s`, `90m`, `3h`, `1d`.
    public static func duration(_ text: String) throws(Problem) -> Int {
        let multipliers: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(text.lowercased())
        var multiplier = 1
        if let last = digits.last, let unit = multipliers[last] {
            multiplier = unit
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number > 0, number < 10_000_000 / multiplier + 1 else {
            throw Problem("a duration such as 90m or 3h")
        }
        return number * multiplier
    }

    /// `size` written back the shortest exact way.
    public static func size(_ bytes: Int) -> String {
        for unit in units.reversed() where bytes >= unit.bytes && bytes % unit.bytes == 0 {
            return "\(bytes / unit.bytes)\(unit.suffix)"
        }
        return "\(bytes)"
    }

    public static func duration(_ seconds: Int) -> String {
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    public static func number(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }
}
