import EpisodeStore
import Playback

/// How a session's episodes sound: each one's feed settings (the global ones for an episode of no
/// feed), with what the command line asked for over them.
public struct Listening: Sendable {
    private let global: ListeningSettings
    private let byFeed: [Int: ListeningSettings]
    /// Asked on the command line, for every episode of the session.
    public var speed: Double?
    public var skipSilence: SilenceSkipping?
    public var loudness: LoudnessTarget?

    /// As published: no speed, no skipping, no loudness (and nothing asked).
    public init() {
        global = ListeningSettings()
        byFeed = [:]
    }

    public init(config: Config, feeds: [Feed]) {
        global = config.policy.listening
        byFeed = config.policies(of: feeds).mapValues(\.listening)
    }

    /// The settings `episode` plays with.
    public func settings(for episode: Episode) -> ListeningSettings { settings(forFeed: episode.feedID) }

    /// The settings an episode of feed `id` (nil: of no feed) plays with.
    public func settings(forFeed id: Int?) -> ListeningSettings {
        var settings = id.flatMap { byFeed[$0] } ?? global
        if let speed { settings.speed = speed }
        if let skipSilence { settings.skipSilence = skipSilence }
        if let loudness { settings.loudness = loudness }
        return settings
    }

    /// The filters an episode plays through with `settings`, in the order the sound goes through
    /// them (the player adds the speed and the volume after them).
    func filters(for settings: ListeningSettings, of episode: Episode) -> [any AudioFilter] {
        // Skip silence, then loudness, join here.
        var filters: [any AudioFilter] = []
        if let skipper = SilenceSkipper(settings.skipSilence) { filters.append(skipper) }
        if case .lufs(let target) = settings.loudness {
            // Not measured yet (no measurement is stored so far): measured as it plays.
            filters.append(LoudnessNormalizer(targetLUFS: target, measured: nil))
        }
        return filters
    }
}
