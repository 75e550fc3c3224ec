/// One stretch of a transcript: what was said, by whom when the source says, from when.
public struct TranscriptCue: Sendable, Equatable, Codable {
    /// Seconds of media from the start; nil for text that has no times (plain text, HTML without
    /// `<time>`): it is still read in order, but cannot be played from.
    public var start: Double?
    /// Seconds of media; nil when the source gives none (the next cue's start ends it).
    public var end: Double?
    /// The speaker's name, when the source names one.
    public var speaker: String?
    /// What was said, as one line: markup removed, entities decoded, runs of white space one
    /// space, and no control characters, so it can be printed and searched as it is.
    public var text: String

    public init(start: Double?, end: Double? = nil, speaker: String? = nil, text: String) {
        self.start = start
        self.end = end
        self.speaker = speaker
        self.text = text
    }
}
