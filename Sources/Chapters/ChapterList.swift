/// An episode's chapters in the order they play, each with its end: the one table `chapters`,
/// `show`, the player and MPRIS read.
public struct ChapterList: Sendable, Equatable {
    /// Sorted by start; a chapter's end is the one its source gave, else the next chapter's start,
    /// else the episode's length when known.
    public let chapters: [Chapter]

    public static let empty = ChapterList([])

    /// Chapters in any order; those starting at the same second keep the first given.
    public init(_ chapters: [Chapter], length: Double? = nil) {
        var seen = Set<Double>()
        let sorted = chapters.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
            .filter { $0.start >= 0 && seen.insert($0.start).inserted }
        self.chapters = sorted.indices.map { index in
            var chapter = sorted[index]
            let next = index + 1 < sorted.count ? sorted[index + 1].start : length
            if chapter.end == nil || chapter.end! <= chapter.start { chapter.end = next }
            return chapter
        }
    }

    public var isEmpty: Bool { chapters.isEmpty }

    /// The index of the chapter being heard at `position` (seconds of media), nil before the first.
    public func index(at position: Double) -> Int? {
        chapters.lastIndex { $0.start <= position }
    }
}
