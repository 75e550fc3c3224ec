/// How fast an episode plays, its pitch kept: 0.5× to 3.0× in steps of 0.05 (AntennaPod's and
/// Pocket Casts' range and step).
public enum PlaybackSpeed {
    public static let range = 0.5...3.0
    public static let step = 0.05

    /// `rate` on the nearest step, kept within `range` (nil when it is no number).
    public static func clamped(_ rate: Double) -> Double? {
        guard rate.isFinite else { return nil }
        let stepped = ((rate / step).rounded() * step * 100).rounded() / 100
        return min(max(stepped, range.lowerBound), range.upperBound)
    }

    /// A speed as typed: `1.5`, or `1.5x`; nil when it is not one within `range`.
    public static func parse(_ text: String) -> Double? {
        let digits = text.hasSuffix("x") || text.hasSuffix("×") ? String(text.dropLast()) : text
        guard let rate = Double(digits), range.contains(rate) else { return nil }
        return clamped(rate)
    }
}
