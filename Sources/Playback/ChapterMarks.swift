/// An episode's chapters as the player moves between them, in seconds of media: where each one
/// starts and ends, whether it is a stop for next and previous, and whether the listener skips it.
/// The session makes them from the library's chapters; the player knows nothing else of them.
public struct ChapterMarks: Equatable, Sendable {
    public struct Mark: Equatable, Sendable {
        public var start: Double
        /// nil: the chapter lasts to the end of the episode.
        public var end: Double?
        /// False for chapters marked not to be in the table of contents: next and previous pass them.
        public var isStop: Bool
        /// Jumped over as it comes, wherever playing reaches it from.
        public var isSkipped: Bool

        public init(start: Double, end: Double?, isStop: Bool = true, isSkipped: Bool = false) {
            self.start = start
            self.end = end
            self.isStop = isStop
            self.isSkipped = isSkipped
        }
    }

    /// In play order (by start).
    public let marks: [Mark]

    public static let none = ChapterMarks([])

    public init(_ marks: [Mark]) { self.marks = marks.sorted { $0.start < $1.start } }

    /// The chapter being heard at `seconds`; nil before the first.
    public func index(at seconds: Double) -> Int? { marks.lastIndex { $0.start <= seconds } }

    /// Where playing `seconds` on is heard: past every skipped chapter it is in (a skipped
    /// chapter's end may be in another skipped one); nil when they reach the end of the episode.
    public func landing(_ seconds: Double) -> Double? {
        var at = seconds
        // Each pass leaves one chapter behind: at most one pass per chapter.
        for _ in 0...marks.count {
            guard let index = index(at: at), marks[index].isSkipped else { return at }
            guard let end = marks[index].end else { return nil }
            guard at < end else { return at }
            at = end
        }
        return at
    }

    /// The start of the first skipped chapter after `seconds`: where decoding must stop to look again.
    public func nextSkipped(after seconds: Double) -> Double? {
        marks.first { $0.isSkipped && $0.start > seconds }?.start
    }

    /// The start of the next stop after `seconds` (nil in the last one).
    func nextStop(after seconds: Double) -> Double? {
        marks.first { $0.isStop && $0.start > seconds }?.start
    }

    /// Where "previous chapter" goes from `seconds`: the start of the stop being heard once
    /// `restartAfter` seconds of it have played, else the start of the stop before it that is not
    /// skipped (the start of the episode before the first).
    func previousStop(from seconds: Double, restartAfter: Double) -> Double {
        let current = marks.last { $0.isStop && $0.start <= seconds }
        if let current, seconds - current.start > restartAfter { return current.start }
        let before = marks.last { $0.isStop && !$0.isSkipped && $0.start < (current?.start ?? 0) }
        return before?.start ?? current?.start ?? 0
    }
}
