import Chapters

/// The chapters written into an audio file by the tool that made it: ID3v2 CHAP/CTOC (MP3),
/// the QuickTime chapter track or Nero `chpl` (MP4), Vorbis comments `CHAPTER001=` (Opus,
/// Vorbis, FLAC). Nothing is trusted: every count and size is checked against the bytes, at most
/// `ChapterProblem.maximumChapters` are read, and a source whose data is broken gives no
/// chapters and a `ChapterProblem` instead (the next source is still read).
public enum EmbeddedChapters {
    public struct Reading: Equatable, Sendable {
        /// The first source's that has any, in the order the source lists them.
        public var chapters: [Chapter] = []
        /// The sources found broken, in the order they were read.
        public var problems: [ChapterProblem] = []
    }

    public static func read(in source: some ByteSource) -> Reading {
        var reading = Reading()
        func take(_ read: () throws(ChapterProblem) -> [Chapter]) {
            guard reading.chapters.isEmpty else { return }
            do {
                reading.chapters = try read()
            } catch {
                reading.problems.append(error)
            }
        }
        let head = source.bytes(at: 0, count: 64)
        if ID3v2Header(head) != nil { take { () throws(ChapterProblem) in try ID3v2Chapters.read(in: source) } }
        switch AudioSniffer.signature(head) {
        case .mp4?:
            let found = MP4Chapters.read(in: source)
            take { found.chapters }
            reading.problems += found.problems
        case .flac?, .ogg?:
            take { () throws(ChapterProblem) in try VorbisChapters.read(in: source) }
        default:
            break
        }
        return reading
    }
}
