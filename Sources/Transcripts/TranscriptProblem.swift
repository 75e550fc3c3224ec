/// Why a transcript file gave no transcript: it is not in the format it was offered as (times that
/// are not times, a cue ending before it starts, JSON cut short, an HTML page with a script), or it
/// is beyond the bounds below. One reason, as a phrase a user can act on.
public struct TranscriptProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let format: TranscriptFormat
    /// What is wrong, as a phrase ("line 7: \"00:01.000 --> 00:00.500\" ends before it starts").
    public let reason: String

    public init(_ format: TranscriptFormat, _ reason: String) {
        self.format = format
        self.reason = reason
    }

    public var description: String { "the \(format.name) transcript cannot be read: \(reason)" }

    /// Larger than any transcript (an hour of speech is about 60 KB of text, a word-timed JSON one
    /// about 1 MB): a bigger file is refused before it is read, so what a server sends costs a
    /// bounded amount of work and memory.
    public static let maximumBytes = 20 << 20
    /// More cues than any transcript has (a cue every 2 s for 55 hours).
    public static let maximumCues = 100_000
}
