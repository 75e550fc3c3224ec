/// When the listener asked playing to stop: after some time of listening (wall time, whatever the
/// speed), or at the end of the episode playing.
public enum SleepTimer: Equatable, Sendable {
    case after(seconds: Double)
    case endOfEpisode

    /// What the sleep key cycles through: off, 15, 30, 45, 60 minutes, the end of the episode.
    public static let cycle: [SleepTimer?] = [
        nil, .after(seconds: 900), .after(seconds: 1800),
        .after(seconds: 2700), .after(seconds: 3600), .endOfEpisode,
    ]

    /// `20m`, `90s`, `1h`, `45` (seconds) or `end`; nil for anything else (or over a day).
    public static func parse(_ text: String) -> SleepTimer? {
        if text == "end" { return .endOfEpisode }
        return PlaybackDuration.parse(text).map { .after(seconds: $0) }
    }
}

/// A duration as typed for the sleep timer: `90`, `90s`, `20m`, `1.5h`, up to a day.
public enum PlaybackDuration {
    public static func parse(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        var digits = Substring(text)
        var unit = 1.0
        if let last = digits.last, let multiplier = units[last] {
            unit = multiplier
            digits = digits.dropLast()
        }
        guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let number = Double(digits),
            number > 0, number * unit <= 86_400
        else { return nil }
        return number * unit
    }
}
