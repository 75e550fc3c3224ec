import Synchronization
import Transcripts

/// The `t` key while playing: whether the cue being spoken is wanted under the now-playing line.
/// Pressed on the key reader's thread, read on the player's.
public final class TranscriptKey: Sendable {
    private let wanted = Mutex(false)

    public init() {}

    public func toggle() { wanted.withLock { $0.toggle() } }

    public var isWanted: Bool { wanted.withLock { $0 } }
}

/// One episode's cues for the `t` key: the line to show at a position, and a note, once each time
/// the key is pressed, when there is no transcript. The transcript is read when the key is first
/// pressed: a play where it never is reads and holds none (a cached one may be megabytes).
/// `play` and `attach` each keep one for the episode they show.
public struct PlayingTranscript {
    private let read: () -> Transcript?
    private var transcript: Transcript??
    private var toldMissing = false

    public init(_ transcript: @autoclosure @escaping () -> Transcript?) { read = transcript }

    /// The cue spoken at `seconds` ("Ann: what was said"), nil when it is not wanted or there is
    /// none; `note` hears "no transcript" the first time it is wanted without one.
    public mutating func line(at seconds: Double, wanted: Bool, episodeID: Int, note: (String) -> Void) -> String? {
        guard wanted else {
            toldMissing = false
            return nil
        }
        if transcript == nil { transcript = .some(read()) }
        guard let cues = transcript??.cues, !cues.isEmpty else {
            if !toldMissing { note("#\(episodeID) has no transcript.") }
            toldMissing = true
            return nil
        }
        let cue = cues[TranscriptReading.cueIndex(at: seconds, in: cues)]
        return (cue.speaker.map { $0 + ": " } ?? "") + cue.text
    }
}
