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

    /// The configuration's settings, reading the subscriptions only when a feed section may set them.
    /// - Throws: `StoreError` when the subscriptions cannot be read.
    public init(config: Config, library: Library) throws {
        self.init(config: config, feeds: config.feedSections.isEmpty ? [] : try library.subscriptions())
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
    /// - Throws: `StoreError` when the episode's measurement cannot be read.
    func filters(for settings: ListeningSettings, of episode: Episode, in library: Library) throws
        -> [any AudioFilter]
    {
        var filters: [any AudioFilter] = []
        if let skipper = SilenceSkipper(settings.skipSilence) { filters.append(skipper) }
        if case .lufs(let target) = settings.loudness {
            // Measured after its download; an episode not measured (a stream) is measured as it plays.
            var measured: Loudness?
            if let measurement = try library.measurement(of: episode), let lufs = measurement.loudnessLUFS,
                let peak = measurement.truePeakDBTP
            {
                measured = Loudness(integratedLUFS: lufs, truePeakDBTP: peak)
            }
            filters.append(LoudnessNormalizer(targetLUFS: target, measured: measured))
        }
        return filters
    }
}
