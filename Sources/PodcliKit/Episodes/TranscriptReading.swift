import AudioFormats
import EpisodeStore
import FoundationEssentials
import Transcripts

/// How `podcli transcript` and the player's `t` key find an episode's transcript and the cue
/// being spoken.
public enum TranscriptReading {
    /// The transcript cached in the episode's directory, nil when there is none or it cannot be
    /// read. Stands in for `EpisodeTranscript.cached(for:in:)` until the fetch part lands.
    public static func cached(for episode: Episode, in library: Library) -> Transcript? {
        guard let file = FileBytes(path: library.directory(of: episode) + "/transcript.json") else { return nil }
        return try? JSONDecoder().decode(Transcript.self, from: Data(file.bytes(at: 0, count: file.size)))
    }

    /// The index of the cue being spoken at `seconds`: the last one starting at or before it (cues
    /// without a time belong to the timed cue before them); 0 before the first.
    public static func cueIndex(at seconds: Double, in cues: [TranscriptCue]) -> Int {
        cues.lastIndex { ($0.start ?? .infinity) <= seconds } ?? 0
    }
}
