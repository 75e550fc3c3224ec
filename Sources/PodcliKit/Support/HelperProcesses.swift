import EpisodeStore
import Threads

/// The podcli processes the application layer starts, asked for by what they do: the executable
/// knows their command lines (the library names no command), and a test can stand in for them.
public protocol HelperProcesses: Sendable {
    /// Starts, detached, the helper that posts the notification of `episodes` (newest first)
    /// and waits for the user's answer; returns at once.
    func postNewEpisodes(_ episodes: [DownloadedEpisode])
    /// Makes the image whose bytes `source` (a descriptor at offset 0) holds into the artwork
    /// file at `path` with `mode`, in a process of its own; false when none was made, or when
    /// `stop` was signalled first.
    func renderArtwork(from source: Int32, to path: String, mode: mode_t, stop: StopEvent) -> Bool
    /// Starts a player in the background for episode `id`, in place of whatever plays now.
    /// - Throws: the player's own failure when it stops before it plays.
    func playInBackground(episode id: Int) throws
}

#if canImport(Glibc)
    import Glibc
#endif
