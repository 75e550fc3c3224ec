import Chapters
import EpisodeStore
import Feeds
import FoundationEssentials

/// Everything `show` (and `list --json`) tells about an episode, as one value: rendered as JSON
/// for scripts and as aligned lines for people.
public struct EpisodeReport: Encodable {
    public let id: Int
    public let uuid: String
    public let title: String
    public let state: String
    /// What `list` shows in its STATE column (`EpisodeLine.status`).
    public let status: String
    public let url: String
    /// Absolute path of the downloaded file, or null.
    public let path: String?
    public let size: Int?
    /// The audio format: MP3, M4A, AAC, Opus, Vorbis, FLAC (see `EpisodeFormat`).
    public let format: String?
    public let sha256: String?
    /// Octal string, e.g. "0600".
    public let mode: String?
    public let ownerUID: UInt32?
    public let protection: String
    /// Seconds into the episode.
    public let position: Double
    public let played: Bool
    /// Seconds of silence skip silence has cut from this episode, in all its plays.
    public let silenceSkipped: Double
    public let createdAt: Int
    public let downloadedAt: Int?
    public let verifiedAt: Int?
    /// Why the last download failed or stopped; nil after a success.
    public let lastError: String?
    // What the feed said (null for an episode fetched by its audio URL).
    public let feedID: Int?
    public let feed: String?
    public let guid: String?
    public let publishedAt: Int?
    /// Seconds: the exact length measured from the downloaded file, else as the feed gives it.
    public let duration: Double?
    /// EBU R128 integrated loudness (LUFS) and true peak (dBTP) of the downloaded file, once
    /// measured; null before, and for a file of silence only (or shorter than one 0.4 s block).
    public let loudness: Double?
    public let truePeak: Double?
    /// Whether the file was measured (a file of silence only has a length and no loudness).
    private let measured: Bool
    public let link: String?
    /// As the feed gives it (often HTML).
    public let description: String?
    public let imageURL: String?
    public let episode: Int?
    public let season: Int?
    public let new: Bool
    public let inFeed: Bool
    /// Kept from sync's retention (`podcli keep`).
    public let kept: Bool
    /// Starred by the user (`podcli star`).
    public let starred: Bool
    /// Every source's, merged (`EpisodeChapters`).
    public let chapters: [Chapter]
    public let chaptersURL: String?
    /// Why a source of chapters gave none (its data is broken), one sentence each.
    public let chapterProblems: [String]
    public let transcripts: [Transcript]
    public let persons: [Person]

    public enum CodingKeys: String, CodingKey {
        case id, uuid, title, state, status, url, path, size, format, sha256, mode, protection, position, played, kept
        case starred
        case feed, guid, duration, link, description, episode, season, new, chapters, transcripts, persons
        case chaptersURL = "chapters_url"
        case chapterProblems = "chapter_problems"
        case feedID = "feed_id"
        case publishedAt = "published_at"
        case imageURL = "image_url"
        case inFeed = "in_feed"
        case ownerUID = "owner_uid"
        case createdAt = "created_at"
        case downloadedAt = "downloaded_at"
        case verifiedAt = "verified_at"
        case lastError = "last_error"
        case loudness
        case truePeak = "true_peak"
        case silenceSkipped = "silence_skipped"
    }

    public init(_ episode: Episode, in library: Library) throws {
        let file = try library.files(of: episode).first
        let playback = try library.playbackState(of: episode)
        id = episode.id
        uuid = episode.uuid
        title = episode.title
        state = episode.state.rawValue
        url = episode.sourceURL
        path = file.map(library.path(of:))
        size = file?.size
        format = EpisodeFormat.name(try library.mediaTypeHints(of: [episode.id])[episode.id])
        sha256 = file?.sha256
        mode = file.map { octal($0.mode) }
        ownerUID = file?.ownerUID
        protection = episode.protection.rawValue
        position = Double(playback.positionMilliseconds) / 1000
        played = playback.played
        silenceSkipped = Double(try library.silenceSkipped(in: episode)) / 1000
        createdAt = episode.createdAt
        downloadedAt = episode.downloadedAt
        verifiedAt = file?.verifiedAt
        lastError = episode.lastError
        feedID = episode.feedID
        feed = try episode.feedID.flatMap { try library.feed(id: $0)?.title }
        guid = episode.guid
        publishedAt = episode.publishedAt
        duration = episode.durationMilliseconds.map { Double($0) / 1000 }
        let measurement = try library.measurement(of: episode)
        measured = measurement != nil
        loudness = measurement?.loudnessLUFS
        truePeak = measurement?.truePeakDBTP
        link = episode.link
        description = episode.description
        imageURL = episode.imageURL
        self.episode = episode.episodeNumber
        season = episode.seasonNumber
        new = episode.isNew && !playback.played
        inFeed = episode.inFeed
        kept = episode.isKept
        starred = episode.isStarred
        status = EpisodeLine.status(
            state: episode.state, removed: episode.removedAt != nil, played: playback.played, new: new)
        let chapterLookup = try EpisodeChapters.lookup(for: episode, in: library)
        chapters = chapterLookup.list.chapters
        chapterProblems = chapterLookup.problems.map(\.description)
        chaptersURL = episode.chaptersURL
        transcripts = Self.decode(episode.transcriptsJSON)
        persons = Self.decode(episode.personsJSON)
    }

    /// A JSON array stored with the episode (empty when there is none).
    private static func decode<T: Decodable>(_ json: String?) -> [T] {
        json.flatMap { try? JSONDecoder().decode([T].self, from: Data($0.utf8)) } ?? []
    }

    /// Aligned `key: value` lines for a terminal.
    public var lines: [String] {
        var pairs: [(String, String)] = [("ID", "\(id)"), ("UUID", uuid), ("Title", title)]
        if let feed { pairs.append(("Feed", feed + (inFeed ? "" : " (no longer listed)"))) }
        if let publishedAt { pairs.append(("Published", Formatting.time(publishedAt))) }
        if let duration { pairs.append(("Duration", Formatting.duration(seconds: Int(duration.rounded())))) }
        if let loudness, let truePeak {
            let peak = Formatting.oneDecimal(truePeak)
            pairs.append(("Loudness", "\(Formatting.oneDecimal(loudness)) LUFS, true peak \(peak) dBTP"))
        } else if measured {
            pairs.append(("Loudness", "none (silent, or shorter than 0.4 s)"))
        }
        if let season, let episode {
            pairs.append(("Episode", "season \(season), episode \(episode)"))
        } else if let episode {
            pairs.append(("Episode", "\(episode)"))
        }
        pairs += [
            (
                "State",
                (state == "new" ? "not downloaded" : state) + (new ? ", new" : "") + (starred ? ", starred" : "")
            ),
            ("URL", url),
            ("Protection", protection),
        ]
        if let format { pairs.append(("Format", format)) }
        if let link { pairs.append(("Link", link)) }
        if let path { pairs.append(("Path", path)) }
        if let size { pairs.append(("Size", "\(Formatting.bytes(size)) (\(size) bytes)")) }
        if let sha256 { pairs.append(("SHA-256", sha256)) }
        if let mode, let ownerUID { pairs.append(("Mode", "\(mode), owner uid \(ownerUID)")) }
        pairs.append(("Position", played ? "played" : Formatting.duration(seconds: Int(position))))
        if silenceSkipped >= 1 {
            pairs.append(("Skipped", Formatting.duration(seconds: Int(silenceSkipped)) + " of silence"))
        }
        if let downloadedAt { pairs.append(("Downloaded", Formatting.time(downloadedAt))) }
        if let verifiedAt { pairs.append(("Verified", Formatting.time(verifiedAt))) }
        if let lastError { pairs.append(("Last error", lastError)) }
        pairs += chapterProblems.map { ("Chapters", $0) }
        let width = pairs.map(\.0.count).max() ?? 0
        var lines = pairs.map { Formatting.padded($0.0, to: width) + "  " + $0.1 }
        if !chapters.isEmpty {
            lines.append("")
            lines.append("Chapters:")
            lines += chapters.map { "  \(Formatting.duration(seconds: Int($0.start)))  \($0.title ?? "")" }
        }
        if let description {
            let text = PlainText.render(html: description, width: 78)
            // A line each, as every other line: a line printed is one line (`Output`).
            if !text.isEmpty {
                lines += [""] + text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
        }
        return lines
    }

    /// JSON with stable key order, one document.
    public static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
