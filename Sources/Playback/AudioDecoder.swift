import AudioFormats

#if canImport(Glibc)
    import Glibc
#endif

/// What `Player` needs of a decoder, whichever library decodes: 16-bit PCM at the stream's own
/// rate and channel count, an exact length, and seeks that land on the frame asked for.
/// Not `Sendable`: one decoder, one thread.
public protocol AudioDecoder: AnyObject {
    var path: String { get }
    var format: AudioFormat { get }
    /// PCM frames in the file, encoder delay and padding trimmed; nil when there is no telling
    /// yet (a stream still arriving).
    var frameCount: Int? { get }
    /// The PCM frame the next `read` starts at.
    var position: Int { get }
    /// True while a file still arriving has too little beyond what was decoded for the next read
    /// not to wait for the network.
    var isWaitingForData: Bool { get }
    /// The furthest frame a seek may go to: the end, or for a file still arriving, about as far
    /// as its bytes on disk reach.
    var seekableFrames: Int? { get }
    /// Decodes into `buffer` (whole frames) and returns how many bytes were written: 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> Int
    /// Moves to PCM frame `frame` (clamped to the end): the next `read` starts exactly there.
    func seek(toFrame frame: Int)
}

extension AudioDecoder {
    /// The length in seconds, if known.
    public var duration: Double? { frameCount.map { Double($0) / Double(format.sampleRate) } }
}

/// Opens the decoder a file needs, chosen by what its first bytes are: libmpg123 for MPEG audio
/// (bit-identical to `mpg123 -s`), FFmpeg for everything else (AAC, ALAC, Opus, Vorbis, FLAC).
public enum AudioDecoders {
    public static func open(path: String) throws(DecoderError) -> any AudioDecoder {
        switch try container(of: path) {
        case .mpeg: return try MPEGDecoder(path: path)
        case let container: return try FFmpegDecoder(path: path, container: container)
        }
    }

    /// Streams a file that is still being written (an episode playing while it downloads).
    /// Reads wait for bytes that are not there yet, until the arrival is over.
    public static func open(growingFile path: String, arrival: Arrival)
        throws(DecoderError) -> any AudioDecoder
    {
        switch try container(of: path) {
        case .mpeg: return try MPEGDecoder(growingFile: path, arrival: arrival)
        case let container: return try FFmpegDecoder(growingFile: path, container: container, arrival: arrival)
        }
    }

    /// What the file's first bytes say it is.
    static func container(of path: String) throws(DecoderError) -> AudioContainer {
        guard let file = FileBytes(path: path) else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        switch AudioSniffer.verdict(file.bytes(at: 0, count: AudioSniffer.windowSize)) {
        case .audio(let container): return container
        case .notAudio(let what): throw .notAudio(path: path, what: what)
        }
    }
}
