import Downloads
import EpisodeStore

/// What a `play` session plays, in order: the episode asked for (by number, UUID prefix or audio
/// URL: a URL podcli does not know is a new episode), then the rest of the queue; or the queue.
public struct Playlist {
    public let episodes: [Episode]
    /// The episode a new URL made, if one did: a session that could not play it forgets it
    /// (`Library.forgetIfNothingKept`), so a failed stream leaves nothing behind.
    public let madeHere: Episode?

    /// - Throws: `PodcliError.emptyQueue` with nothing named and nothing queued; what naming the
    ///   episode throws (`StoreError.episodeNotFound`, `DownloadError.invalidURL`).
    public init(_ reference: String?, library: Library, protection: Protection) throws {
        let queue = try library.queue()
        guard let reference else {
            guard !queue.isEmpty else { throw PodcliError.emptyQueue }
            episodes = queue
            madeHere = nil
            return
        }
        let episode: Episode
        var made = false
        if reference.contains("://") {
            try DownloadError.checkFetchable(reference)
            (episode, made) = try library.episodeToFetch(
                sourceURL: reference, title: FetchTarget.defaultTitle(for: reference), protection: protection)
        } else {
            episode = try library.episode(matching: reference)
        }
        episodes = [episode] + queue.filter { $0.id != episode.id }
        madeHere = made ? episode : nil
    }
}
