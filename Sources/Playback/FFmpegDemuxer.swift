import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// One owner of an `AVFormatContext` reading one file through an `AVIOContext` over an
/// `AudioFile` (so a file still downloading is read as it grows), with its best audio stream
/// chosen. Not `Sendable`: one thread.
final class FFmpegDemuxer {
    let file: AudioFile
    private var io: UnsafeMutablePointer<AVIOContext>?
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    let streamIndex: Int32
    /// The decoder FFmpeg has for the stream.
    let codec: UnsafePointer<AVCodec>

    /// Bytes AVIO asks the file for at a time.
    static let bufferSize: Int32 = 64 * 1024

    /// - Throws: `DecoderError.unplayable` when there is no audio stream or no decoder for it.
    init(file: AudioFile) throws(DecoderError) {
        self.file = file
        let path = file.path
        guard let buffer = cff_av_malloc(Int(Self.bufferSize)) else {
            throw .cannotOpen(path: path, reason: "out of memory")
        }
        io = cff_avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, Unmanaged.passUnretained(file).toOpaque(),
            Self.read, nil, Self.seek)
        guard let io else {
            cff_av_free(buffer)
            throw .cannotOpen(path: path, reason: "out of memory")
        }
        context = cff_avformat_alloc_context()
        guard let context else { throw .cannotOpen(path: path, reason: "out of memory") }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // On failure avformat_open_input frees the context and sets it to nil.
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        var code = cff_avformat_open_input(&opened, path, nil, nil)
        self.context = opened
        guard code >= 0, let opened else { throw .unplayable(path: path, reason: FFmpegError.text(code)) }
        code = cff_avformat_find_stream_info(opened, nil)
        guard code >= 0 else { throw .unplayable(path: path, reason: FFmpegError.text(code)) }
        var decoder: UnsafePointer<AVCodec>?
        let index = cff_av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder else {
            if index == cffmpeg_error_decoder_not_found(), let stream = Self.firstAudioStream(of: opened) {
                let name = String(cString: cff_avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
                throw .unplayable(path: path, reason: "its audio is in a format podcli cannot play (\(name))")
            }
            throw .unplayable(path: path, reason: "it has no audio track")
        }
        streamIndex = index
        codec = decoder
        // Only the audio stream's packets: a cover picture or a video track is skipped unread.
        for other in 0..<Int32(opened.pointee.nb_streams) where other != index {
            opened.pointee.streams[Int(other)]!.pointee.discard = AVDISCARD_ALL
        }
    }

    deinit {
        if context != nil { cff_avformat_close_input(&context) }
        if let io {
            cff_av_free(io.pointee.buffer)
            cff_avio_context_free(&self.io)
        }
    }

    var stream: UnsafeMutablePointer<AVStream> { context!.pointee.streams[Int(streamIndex)]! }

    /// The next packet of the audio stream into `packet`; false at the end (or a read error,
    /// which ends the stream where it happened).
    func readPacket(into packet: UnsafeMutablePointer<AVPacket>) -> Bool {
        while true {
            guard cff_av_read_frame(context, packet) >= 0 else { return false }
            if packet.pointee.stream_index == streamIndex { return true }
            cff_av_packet_unref(packet)
        }
    }

    /// Moves to the last point at which decoding can start at or before `timestamp` (in the
    /// stream's time base).
    func seek(to timestamp: Int64) -> Int32 {
        cff_avformat_seek_file(context, streamIndex, Int64.min, timestamp, timestamp, 0)
    }

    private static func firstAudioStream(of context: UnsafeMutablePointer<AVFormatContext>)
        -> UnsafeMutablePointer<AVStream>?
    {
        (0..<Int(context.pointee.nb_streams)).lazy.compactMap { context.pointee.streams[$0] }
            .first { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
    }

    /// AVIO's read: bytes from the file; the end is AVERROR_EOF.
    private static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
        opaque, buffer, size in
        let file = Unmanaged<AudioFile>.fromOpaque(opaque!).takeUnretainedValue()
        let count = file.read(into: buffer!, count: Int(size))
        return count > 0 ? Int32(count) : count == 0 ? cffmpeg_error_eof() : -EIO
    }

    /// AVIO's seek; AVSEEK_SIZE asks for the length, which a file still arriving does not know.
    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
        opaque, offset, whence in
        let file = Unmanaged<AudioFile>.fromOpaque(opaque!).takeUnretainedValue()
        if whence & AVSEEK_SIZE != 0 { return file.isGrowing ? -1 : Int64(file.availableBytes) }
        return Int64(file.seek(to: Int(offset), from: whence & ~AVSEEK_FORCE))
    }
}
