import CMPG123

#if canImport(Glibc)
    import Glibc
#endif

/// One owner of an `mpg123_handle`: decodes an MPEG audio file (MP1, MP2, MP3) to 16-bit PCM,
/// with gapless trimming (LAME/Info headers) and sample-exact seeking.
///
/// The whole file is scanned once when opened (frame headers only, through a buffered reader:
/// tens of milliseconds for an hour), so the duration is exact for CBR and VBR alike, with a
/// Xing/Info/VBRI header or without. Every seek lands on the sample asked for. Corrupt frames are skipped: libmpg123 resyncs. Not `Sendable`: one decoder,
/// one thread.
public final class MPEGDecoder: AudioDecoder {
    public let path: String
    public let format: AudioFormat
    private let handle: OpaquePointer
    /// What libmpg123 reads from; kept alive as long as the handle.
    private let file: AudioFile
    /// PCM frames in the file, after gapless trimming; nil when there is no telling (a stream).
    public let frameCount: Int?
    /// Opened without libmpg123's read-ahead (see `openAnyway`): a stream of a single frame.
    private let singleFrame: Bool

    public init(path: String) throws(DecoderError) {
        self.path = path
        (file, handle, format, singleFrame) = try Self.openAnyway(path: path, arrival: nil)
        // A second handle does the scan: a scanned handle seeks back to the start, and after such
        // a seek libmpg123's synthesis can round a rare sample of MPEG-2/2.5 audio one step
        // differently from a fresh start. (An estimate from a VBR file's size can be far off.)
        frameCount = Self.scannedLength(of: path)
    }

    /// Streams a file that is still being written (an episode playing while it downloads).
    /// Reads wait for bytes that are not there yet, until the arrival is over.
    /// The length is unknown, and seeks go only as far as what is on disk.
    public init(growingFile path: String, arrival: Arrival) throws(DecoderError) {
        self.path = path
        (file, handle, format, singleFrame) = try Self.openAnyway(path: path, arrival: arrival)
        frameCount = nil
    }

    /// Opens `path`; when libmpg123 finds no format, tries again without its read-ahead. It
    /// trusts a frame header only once it has read the next one, so a stream of a single frame
    /// (a 24 ms MP2 file) has no format at all ("a one-frame stream?") unless told not to look.
    /// Only then: the read-ahead is what resyncs reliably past junk in front of the audio.
    private static func openAnyway(path: String, arrival: Arrival?) throws(DecoderError)
        -> (AudioFile, OpaquePointer, AudioFormat, singleFrame: Bool)
    {
        let file = try AudioFile(path: path, arrival: arrival)
        do {
            let (handle, format) = try open(file)
            return (file, handle, format, false)
        } catch {
            guard case .notAudio = error else { throw error }
            let again = try AudioFile(path: path, arrival: arrival)
            let (handle, format) = try open(again, readAhead: false)
            return (again, handle, format, true)
        }
    }

    /// The length a scan of `path` finds, on a handle of its own.
    private static func scannedLength(of path: String) -> Int? {
        guard let (file, scanner, _, _) = try? openAnyway(path: path, arrival: nil) else { return nil }
        return withExtendedLifetime(file) {
            defer {
                mpg123_close(scanner)
                mpg123_delete(scanner)
            }
            _ = mpg123_scan(scanner)
            let length = mpg123_length(scanner)
            return length >= 0 ? length : nil
        }
    }

    /// A handle reading `file` from the start, giving 16-bit PCM at the stream's own rate and
    /// channels (what ALSA and `mpg123 -s` take).
    private static func open(_ file: AudioFile, readAhead: Bool = true) throws(DecoderError)
        -> (handle: OpaquePointer, format: AudioFormat)
    {
        let path = file.path
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            throw .cannotOpen(path: path, reason: String(cString: mpg123_plain_strerror(error)))
        }
        // Quiet: libmpg123 would print its warnings to stderr. Gapless is on by default. An ID3v2
        // tag is skipped, not parsed: parsing keeps the whole tag in memory, a 100 MB picture
        // and all, twice (this handle and the scan's); `EmbeddedPicture` reads what it needs.
        let flags = MPG123_QUIET.rawValue | MPG123_SKIP_ID3V2.rawValue
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(flags), 0)
        if !readAhead { mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_NO_READAHEAD.rawValue), 0) }
        if file.isGrowing {
            // The end of a growing file is not its end: never look there (for an ID3v1 tag or
            // the length), but still allow seeks within what has arrived.
            let flags = Int(MPG123_NO_PEEK_END.rawValue | MPG123_FORCE_SEEKABLE.rawValue)
            mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), flags, 0)
        }
        mpg123_replace_reader_handle(handle, AudioFile.read, AudioFile.seek, nil)
        guard mpg123_open_handle(handle, Unmanaged.passUnretained(file).toOpaque()) == MPG123_OK.rawValue else {
            let reason = String(cString: mpg123_strerror(handle))
            mpg123_delete(handle)
            throw .cannotOpen(path: path, reason: reason)
        }
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        guard mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue, rate > 0, channels > 0
        else {
            mpg123_close(handle)
            mpg123_delete(handle)
            throw .notAudio(path: path, what: "no MPEG audio frame could be decoded")
        }
        mpg123_format_none(handle)
        mpg123_format(handle, rate, channels, Int32(MPG123_ENC_SIGNED_16.rawValue))
        return (handle, AudioFormat(sampleRate: rate, channels: Int(channels)))
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    public var isWaitingForData: Bool { file.isStarved }

    /// For a file still arriving: the bytes beyond the current MPEG frame, at its size.
    public var seekableFrames: Int? {
        guard file.isGrowing else { return frameCount }
        let position = max(0, mpg123_tell(handle))
        var info = mpg123_frameinfo2()
        let streamPosition = mpg123_tell_stream(handle)
        guard mpg123_info2(handle, &info) == MPG123_OK.rawValue, info.framesize > 0, streamPosition >= 0 else {
            return position
        }
        let framesAhead = (file.availableBytes - streamPosition) / Int(info.framesize)
        return position + max(0, framesAhead) * Int(mpg123_spf(handle))
    }

    public var position: Int { pendingSeek ?? max(0, mpg123_tell(handle)) }

    /// A seek asked for and not made yet. libmpg123 (1.31) decodes wrongly after two seeks with
    /// no read between them (to frame 20,480 and then 17,480 of a 44.1 kHz MP3, for one), so only
    /// the last seek is made, just before the next read.
    private var pendingSeek: Int?

    /// Decodes into `buffer` (whole frames) and returns how many bytes were written: 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> Int {
        if let target = pendingSeek {
            pendingSeek = nil
            guard mpg123_seek(handle, target, SEEK_SET) >= 0 else {
                throw .seeking(path: path, reason: String(cString: mpg123_strerror(handle)))
            }
        }
        let wanted = buffer.count - buffer.count % format.bytesPerFrame
        var total = 0
        while total < wanted {
            var done = 0
            let code = mpg123_read(handle, buffer.baseAddress! + total, wanted - total, &done)
            total += done
            switch code {
            case MPG123_OK.rawValue, MPG123_NEW_FORMAT.rawValue:
                continue
            case MPG123_DONE.rawValue:
                return total
            default:
                // Hand over what was decoded before the bad frame; the next read meets the error.
                // Without read-ahead, libmpg123 ends a stream with an error, not MPG123_DONE.
                if total > 0 || singleFrame { return total }
                throw .decoding(path: path, reason: String(cString: mpg123_strerror(handle)))
            }
        }
        return total
    }

    /// Moves to PCM frame `frame` (clamped to the end): the next `read` starts exactly there.
    /// The seek is made just before the next read (see `pendingSeek`).
    public func seek(toFrame frame: Int) {
        let target = frameCount.map { min(max(0, frame), $0) } ?? max(0, frame)
        // Staying put keeps the decoder's state as it is (see `init` on seeks and rounding).
        pendingSeek = target == max(0, mpg123_tell(handle)) ? nil : target
    }
}
