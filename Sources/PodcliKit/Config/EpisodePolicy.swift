/// What podcli does with one feed's episodes: what `sync` downloads and deletes, and how they play.
public struct EpisodePolicy: Equatable, Sendable {
    public enum Download: String, CaseIterable, Sendable {
        /// New episodes: the newest at subscription, then each one a refresh brings.
        case new
        /// Every episode the feed lists that has not been played or deleted.
        case all
        case none
    }

    public var download = Download.new
    /// The newest this many episodes are kept downloaded; older downloads are deleted. nil: all.
    public var keep: Int?
    /// Episodes published longer ago than this are not downloaded. nil: any age.
    public var maxAgeDays: Int?
    /// Enclosures larger than this are not downloaded. nil: any size.
    public var maxSize: Int?
    /// Played episodes are deleted this long after they were played. nil: never.
    public var deletePlayedAfterDays: Int?
    public var listening = ListeningSettings()
}
