import AudioFormats
import Downloads
import EpisodeStore
import Feeds
import FoundationEssentials
import Transcripts

/// An episode's transcript (Podcasting 2.0 `podcast:transcript`): of the feed's offers the most
/// structured one podcli reads, fetched with the feed's HTTP rules, kept as read beside the audio
/// (`Library.transcriptPath`, the episode's protection mode) and in the library's search index.
/// Fetched when the episode is downloaded, or on demand; read by `podcli transcript` and the player.
public enum EpisodeTranscript {
    /// About how much speech one searched segment holds: `list -s` gives a hit this precise a time.
    public static let segmentSeconds = 30.0
    /// Past this much text a segment ends even without times (plain text, untimed HTML).
    static let segmentBytes = 1000

    /// The transcript kept for the episode; nil when none was fetched (or the file is unreadable).
    public static func cached(for episode: Episode, in library: Library) -> Transcripts.Transcript? {
        guard let file = FileBytes(path: library.transcriptPath(of: episode)),
            file.size <= TranscriptProblem.maximumBytes
        else { return nil }
        return try? JSONDecoder().decode(Transcripts.Transcript.self, from: Data(file.bytes(at: 0, count: file.size)))
    }

    /// The offer to fetch and the format to read it as; nil when the feed offers none podcli reads.
    public static func preferredOffer(of episode: Episode) -> (offer: Feeds.Transcript, format: TranscriptFormat)? {
        TranscriptFormat.preferred(of: offers(of: episode), mediaType: { $0.type ?? "" })
    }

    /// Every `podcast:transcript` the feed gives the episode, as stored with it.
    public static func offers(of episode: Episode) -> [Feeds.Transcript] {
        episode.transcriptsJSON.flatMap { try? JSONDecoder().decode([Feeds.Transcript].self, from: Data($0.utf8)) }
            ?? []
    }

    /// Fetches the episode's preferred transcript, keeps it and indexes it, replacing what was kept,
    /// and records the offer it came from. The caller holds the episode's lock.
    /// - Throws: `TranscriptUnavailable` when the feed offers none podcli reads, `DownloadError`,
    ///   `TranscriptProblem` when the file is not what it was offered as, `StoreError`.
    public static func fetch(
        for episode: Episode, in library: Library, fetcher: Downloader
    ) throws -> Transcripts.Transcript {
        let (offer, transcript) = try read(for: episode, fetcher: fetcher)
        try library.cacheTranscript(Array(try JSONEncoder().encode(transcript)), of: episode)
        try library.setTranscript(segments(of: transcript), of: episode.id)
        try library.recordTranscriptSource(url: offer.url, type: offer.type, of: episode.id)
        return transcript
    }

    /// The preferred offer fetched and read, nothing kept.
    private static func read(
        for episode: Episode, fetcher: Downloader
    ) throws -> (Feeds.Transcript, Transcripts.Transcript) {
        guard let (offer, format) = preferredOffer(of: episode) else {
            throw TranscriptUnavailable(
                episodeID: episode.id, offeredTypes: offers(of: episode).map { $0.type ?? "no type" })
        }
        let bytes = try fetcher.fetchTranscript(offer.url, maximumBytes: TranscriptProblem.maximumBytes)
        return (offer, try Transcripts.Transcript(bytes, format: format))
    }

    /// The transcript to show now (`podcli transcript`): the kept one, else the preferred offer
    /// fetched. A downloaded episode keeps and indexes what was fetched, under its lock, as after
    /// its download; any other is only read: podcli writes no directory for an episode it has
    /// not downloaded, so the next call fetches again.
    /// - Throws: as `fetch`, and `StoreError.busy` while another podcli downloads the episode.
    public static func cachedOrFetched(
        for episode: Episode, in library: Library, fetcher: Downloader
    ) throws -> Transcripts.Transcript {
        if let cached = cached(for: episode, in: library) { return cached }
        guard episode.state == .downloaded else { return try read(for: episode, fetcher: fetcher).1 }
        let lock = try library.lock(episode)
        return try withExtendedLifetime(lock) {
            // Another podcli may have fetched it while this one waited.
            try cached(for: episode, in: library) ?? fetch(for: episode, in: library, fetcher: fetcher)
        }
    }

    /// For a downloaded episode, its transcript brought in step with its feed's offers (after the
    /// download, or at a sync when the feed changed them): the preferred offer fetched, kept and
    /// indexed, unless the kept transcript came from it already. The offer is recorded even when
    /// fetching it fails, so a sync does not try a broken offer again until the feed changes it.
    /// The caller holds the episode's lock.
    /// - Returns: whether a transcript was fetched.
    /// - Throws: as `fetch`, never `TranscriptUnavailable`.
    @discardableResult
    public static func update(for episode: Episode, in library: Library, fetcher: Downloader) throws -> Bool {
        let preferred = preferredOffer(of: episode)?.offer
        let source = try library.transcriptSource(of: episode.id)
        let keptFromPreferred =
            library.hasCachedTranscript(of: episode) && source?.url == preferred?.url && source?.type == preferred?.type
        guard let preferred, !keptFromPreferred else {
            // Nothing to fetch: what was kept stays (a feed that stops offering it takes nothing).
            if source == nil || source?.offersChanged == true {
                try library.recordTranscriptSource(url: preferred?.url, type: preferred?.type, of: episode.id)
            }
            return false
        }
        do {
            _ = try fetch(for: episode, in: library, fetcher: fetcher)
        } catch {
            try? library.recordTranscriptSource(url: preferred.url, type: preferred.type, of: episode.id)
            throw error
        }
        return true
    }

    /// The cues grouped into searched segments of about `segmentSeconds`, one speaker each. A cue
    /// without a start is taken to start where the one before it did (at 0 for the first).
    public static func segments(of transcript: Transcripts.Transcript) -> [TranscriptSegment] {
        var segments: [TranscriptSegment] = []
        var start = 0.0
        for cue in transcript.cues where !cue.text.isEmpty {
            start = cue.start ?? start
            let milliseconds = Int((start * 1000).rounded())
            if var last = segments.last, last.speaker == cue.speaker,
                Double(milliseconds - last.startMilliseconds) < segmentSeconds * 1000,
                last.text.utf8.count + cue.text.utf8.count < segmentBytes
            {
                last.text += " " + cue.text
                last.endMilliseconds = cue.end.map { Int(($0 * 1000).rounded()) } ?? last.endMilliseconds
                segments[segments.count - 1] = last
            } else {
                segments.append(
                    TranscriptSegment(
                        startMilliseconds: milliseconds, endMilliseconds: cue.end.map { Int(($0 * 1000).rounded()) },
                        speaker: cue.speaker, text: cue.text))
            }
        }
        return segments
    }
}

/// An episode whose feed offers no transcript podcli reads.
public struct TranscriptUnavailable: Error, Equatable, Sendable, CustomStringConvertible {
    public let episodeID: Int
    /// The types offered (none when the feed offers no transcript at all).
    public let offeredTypes: [String]

    public init(episodeID: Int, offeredTypes: [String]) {
        self.episodeID = episodeID
        self.offeredTypes = offeredTypes
    }

    public var description: String {
        offeredTypes.isEmpty
            ? "#\(episodeID)'s feed offers no transcript"
            : "#\(episodeID)'s feed offers its transcript only as \(offeredTypes.joined(separator: ", ")), "
                + "which podcli does not read"
    }
}
