import Downloads
import EpisodeStore

extension Error {
    /// The disk, not the episode, stopped a download: no backoff for the episode, and the
    /// downloads left would stop the same way.
    public var isOutOfSpace: Bool {
        if let error = self as? DownloadError { return error.isOutOfSpace }
        if let error = self as? StoreError { return error.isOutOfSpace }
        return false
    }
}
