import AudioFormats
import Chapters
import Downloads
import EpisodeStore
import FoundationEssentials

/// The chapters of one episode, from every source podcli reads: the one lookup `show`, `chapters`
/// and the play session use.
///
/// The sources: the feed's Podlove Simple Chapters (stored with the episode), its Podcasting 2.0
/// JSON chapters file (fetched when the episode was downloaded, `Library.chaptersPath`), and the
/// chapters inside the downloaded file (`EmbeddedChapters`). Of the feed's, the JSON file's when
/// it has any, else Podlove's. Where the feed and the file disagree the file wins, since the
/// publisher's tool wrote it: when the file has chapters, they are the list (their starts, ends
/// and number); each takes from the feed's chapter starting within `matchingSeconds` of it what
/// it lacks (title, URL, image) and the feed's `"toc": false`. When the file has none, the
/// feed's are the list.
public enum EpisodeChapters {
    /// How close a feed chapter's start must be to a file chapter's for them to be one chapter.
    public static let matchingSeconds = 1.0

    /// The chapters, and why a source gave none (broken data: one line each in `show`).
    public struct Lookup: Sendable {
        public let list: ChapterList
        public let problems: [ChapterProblem]
    }

    public static func list(for episode: Episode, in library: Library) throws(StoreError) -> ChapterList {
        try lookup(for: episode, in: library).list
    }

    public static func lookup(for episode: Episode, in library: Library) throws(StoreError) -> Lookup {
        var problems: [ChapterProblem] = []
        var feed = episode.chaptersJSON.flatMap { try? JSONDecoder().decode([Chapter].self, from: Data($0.utf8)) } ?? []
        if let bytes = read(library.chaptersPath(of: episode), limit: Downloader.maximumChaptersBytes) {
            do throws(ChapterProblem) {
                let json = try JSONChapters.parse(bytes)
                if !json.isEmpty { feed = json }
            } catch {
                problems.append(error)
            }
        }
        var file: [Chapter] = []
        if let recorded = try library.files(of: episode).first, let source = FileBytes(path: library.path(of: recorded))
        {
            let embedded = EmbeddedChapters.read(in: source)
            file = embedded.chapters
            problems += embedded.problems
        }
        let length = episode.durationMilliseconds.map { Double($0) / 1000 }
        return Lookup(list: ChapterList(merge(file: file, feed: feed), length: length), problems: problems)
    }

    /// The file's chapters when it has any, each completed from the feed's chapter that starts
    /// within `matchingSeconds` of it (the nearest); else the feed's.
    static func merge(file: [Chapter], feed: [Chapter]) -> [Chapter] {
        guard !file.isEmpty else { return feed }
        return file.map { chapter in
            let match = feed.filter { abs($0.start - chapter.start) <= matchingSeconds }
                .min { abs($0.start - chapter.start) < abs($1.start - chapter.start) }
            guard let match else { return chapter }
            var merged = chapter
            merged.title = chapter.title ?? match.title
            merged.url = chapter.url ?? match.url
            merged.image = chapter.image ?? match.image
            merged.isNavigationStop = chapter.isNavigationStop && match.isNavigationStop
            return merged
        }
    }

    /// The file at `path` if it is there, up to `limit` bytes.
    private static func read(_ path: String, limit: Int) -> [UInt8]? {
        guard let file = FileBytes(path: path) else { return nil }
        return file.bytes(at: 0, count: min(file.size, limit))
    }
}
