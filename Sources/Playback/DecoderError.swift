/// Why a file could not be decoded, worded so a user can act on it.
public enum DecoderError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    /// The file is not audio at all: what it is instead.
    case notAudio(path: String, what: String)
    /// Audio that cannot be played: cut short, encrypted, no audio track, a codec podcli lacks.
    case unplayable(path: String, reason: String)
    /// FFmpeg's libraries, which decode every format but MPEG audio, are not installed.
    case libraryMissing(path: String, library: String)
    case decoding(path: String, reason: String)
    case seeking(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open \(path): \(reason)"
        case .notAudio(let path, let what): return "\(path) is not audio (\(what))"
        case .unplayable(let path, let reason): return "\(path) cannot be played: \(reason)"
        case .libraryMissing(let path, let library):
            return "cannot play \(path): FFmpeg's \(library) is missing (Debian: apt-get install libavformat59 "
                + "libavcodec59 libswresample4)"
        case .decoding(let path, let reason): return "cannot decode \(path): \(reason)"
        case .seeking(let path, let reason): return "cannot seek in \(path): \(reason)"
        }
    }
}
