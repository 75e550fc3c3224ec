import Transcripts

/// How `podcli transcript` and the player's `t` key find the cue being spoken (the transcript
/// itself: `EpisodeTranscript.cached`).
public enum TranscriptReading {
    /// The index of the cue being spoken at `seconds`: the last one starting at or before it (cues
    /// without a time belong to the timed cue before them); 0 before the first.
    public static func cueIndex(at seconds: Double, in cues: [TranscriptCue]) -> Int {
        cues.lastIndex { ($0.start ?? .infinity) <= seconds } ?? 0
    }
}
