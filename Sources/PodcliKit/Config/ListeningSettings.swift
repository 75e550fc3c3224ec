import Playback

/// How a feed's episodes sound (`speed`, `skip-silence`, `loudness`, `skip-intro`, `skip-outro`:
/// global, and per feed like `keep`). The defaults play every episode as published, bit for bit.
public struct ListeningSettings: Equatable, Sendable {
    public var speed = 1.0
    public var skipSilence = SilenceSkipping.off
    public var loudness = LoudnessTarget.off
    /// Seconds an episode played from its beginning starts past, and seconds before its end it
    /// ends (marked played, as at its end).
    public var skipIntro = 0
    public var skipOutro = 0

    public init() {}
}

/// The integrated loudness episodes are brought to (EBU R128), or none.
public enum LoudnessTarget: Equatable, Sendable, CustomStringConvertible {
    case off
    case lufs(Double)

    /// The targets a listener may ask for: from the quietest broadcast norm to the loudest
    /// streaming one, and some room beyond.
    public static let range = -40.0...(-5.0)

    /// `-16`, `-16LUFS` or `off`; nil for anything else.
    public init?(_ text: String) {
        if text == "off" {
            self = .off
            return
        }
        let number = text.hasSuffix("LUFS") ? String(text.dropLast(4)) : text
        guard let lufs = Double(number), Self.range.contains(lufs) else { return nil }
        self = .lufs(lufs)
    }

    public var description: String {
        switch self {
        case .off: return "off"
        case .lufs(let lufs): return ConfigValue.number(lufs)
        }
    }
}
