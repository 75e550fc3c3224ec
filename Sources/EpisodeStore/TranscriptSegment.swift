/// A stretch of an episode's transcript as the library keeps it: a few cues grouped (up to about
/// 30 s), searched as one text by `list -s`.
public struct TranscriptSegment: Equatable, Sendable {
    /// Milliseconds from the start of the audio.
    public var startMilliseconds: Int
    public var endMilliseconds: Int?
    /// Who speaks, when the transcript says.
    public var speaker: String?
    public var text: String

    public init(startMilliseconds: Int, endMilliseconds: Int? = nil, speaker: String? = nil, text: String) {
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.speaker = speaker
        self.text = text
    }
}
