import Chapters
import EpisodeStore
import Playback
import Strings

/// An episode's chapters with the listener's choices: numbered from 1 in play order, as
/// `podcli chapters` lists them, each skipped or not (kept in the library by its start).
public struct EpisodeChapterTable: Sendable {
    public let list: ChapterList
    /// The starts of the skipped chapters, in milliseconds.
    public let skippedStarts: Set<Int>

    public init(_ episode: Episode, in library: Library) throws(StoreError) {
        list = try EpisodeChapters.list(for: episode, in: library)
        skippedStarts = try library.skippedChapterStarts(of: episode)
    }

    public var chapters: [Chapter] { list.chapters }

    public func isSkipped(_ chapter: Chapter) -> Bool { skippedStarts.contains(Self.milliseconds(chapter.start)) }

    /// A chapter's start as the library keeps it.
    public static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }

    /// What the player needs of them.
    public var marks: ChapterMarks {
        ChapterMarks(
            chapters.map {
                ChapterMarks.Mark(start: $0.start, end: $0.end, isStop: $0.isNavigationStop, isSkipped: isSkipped($0))
            })
    }

    /// The starts (milliseconds) of the chapters numbered `numbers` ("2", "3,5"), as listed.
    /// - Throws: `NoSuchChapter` for a word that is not the number of one.
    public func starts(ofNumbers numbers: [String], episode: Episode) throws(NoSuchChapter) -> [Int] {
        var starts: [Int] = []
        for word in numbers.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            guard let number = Int(word.trimmingWhitespace()), chapters.indices.contains(number - 1) else {
                throw NoSuchChapter(word: String(word), episode: episode.id, count: chapters.count)
            }
            starts.append(Self.milliseconds(chapters[number - 1].start))
        }
        return starts
    }
}

/// A chapter number given that the episode has no chapter for (a usage error).
public struct NoSuchChapter: Error, Equatable, CustomStringConvertible {
    public let word: String
    public let episode: Int
    public let count: Int

    public var description: String {
        count == 0
            ? "#\(episode) has no chapters"
            : "no chapter '\(word)' in #\(episode): its chapters are numbered 1 to \(count) ('podcli chapters \(episode)')"
    }
}
