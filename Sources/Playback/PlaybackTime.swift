/// Times as people write them: `90`, `1:30`, `1:02:03`, with optional decimals (`12.5`, `1:30.25`).
public enum PlaybackTime {
    /// No episode is longer: anything above is a typo (and would not fit a frame count).
    public static let longest = 1_000_000.0

    /// Seconds, or nil when `text` is not a time (or longer than `longest`).
    public static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), !parts.contains(where: \.isEmpty) else { return nil }
        var seconds = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                let value = Double(part), value.isFinite
            else { return nil }
            // Minutes and seconds after a colon stay below 60, as on a clock.
            if index > 0 && value >= 60 { return nil }
            seconds = seconds * 60 + value
        }
        return seconds <= longest ? seconds : nil
    }
}
