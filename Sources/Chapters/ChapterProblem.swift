/// Why one source of an episode's chapters gave none: its data is broken (a frame past the
/// file's end, counts that lie, a time that is not one, JSON that is not chapters). The other
/// sources still count; `show` says this in one line.
public struct ChapterProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Source: String, Sendable {
        case id3 = "the file's ID3 chapters (CHAP)"
        case neroChapters = "the file's MP4 chapters (chpl)"
        case quickTimeChapters = "the file's MP4 chapter track"
        case comments = "the file's chapter comments (CHAPTER001=)"
        case json = "the JSON chapters file"
    }

    public let source: Source
    /// What is wrong, as a phrase ("frame 'ch3' runs past the end of the file").
    public let reason: String

    public init(_ source: Source, _ reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String {
        source == .json ? "\(source.rawValue) is not chapters: \(reason)" : "\(source.rawValue) are broken: \(reason)"
    }

    /// More chapters than any episode has: a source listing more is taken as broken, so what a
    /// file or a server says costs a bounded amount of work.
    public static let maximumChapters = 1_000
}
