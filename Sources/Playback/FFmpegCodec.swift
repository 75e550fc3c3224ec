import CFFmpeg

/// One owner of an `AVCodecContext` decoding one stream, with the packet and frame it decodes
/// through. Not `Sendable`: one thread.
final class FFmpegCodec {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private(set) var frame: UnsafeMutablePointer<AVFrame>?
    /// The demuxer has no more packets: the decoder has been told, and gives what it holds.
    private var draining = false

    init(for demuxer: FFmpegDemuxer) throws(DecoderError) {
        let path = demuxer.file.path
        context = cff_avcodec_alloc_context3(demuxer.codec)
        packet = cff_av_packet_alloc()
        frame = cff_av_frame_alloc()
        guard let context, packet != nil, frame != nil else { throw .cannotOpen(path: path, reason: "out of memory") }
        var code = cff_avcodec_parameters_to_context(context, demuxer.stream.pointee.codecpar)
        // The packets' time base: libavcodec needs it to trim encoder delay and padding (the
        // skip-samples side data of MP4 edit lists and Opus pre-skip) and to time the frames.
        context.pointee.pkt_timebase = demuxer.stream.pointee.time_base
        if code >= 0 { code = cff_avcodec_open2(context, demuxer.codec, nil) }
        guard code >= 0 else { throw .unplayable(path: path, reason: FFmpegError.text(code)) }
    }

    deinit {
        cff_av_frame_free(&frame)
        cff_av_packet_free(&packet)
        cff_avcodec_free_context(&context)
    }

    /// Decodes the next frame into `frame`, reading packets from `demuxer` as the decoder asks;
    /// false at the end of the stream.
    /// - Throws: the code of a packet the decoder refused (corrupt data); the next call goes on
    ///   with the packet after it.
    func decodeFrame(from demuxer: FFmpegDemuxer) throws(FFmpegCodecError) -> Bool {
        cff_av_frame_unref(frame)
        while true {
            let received = cff_avcodec_receive_frame(context, frame)
            if received == 0 { return true }
            if received == cffmpeg_error_eof() { return false }
            guard received == cffmpeg_error_again() else { throw FFmpegCodecError(code: received) }
            guard !draining else { return false }
            guard demuxer.readPacket(into: packet!) else {
                draining = true
                _ = cff_avcodec_send_packet(context, nil)
                continue
            }
            let sent = cff_avcodec_send_packet(context, packet)
            cff_av_packet_unref(packet)
            if sent < 0 && sent != cffmpeg_error_again() { throw FFmpegCodecError(code: sent) }
        }
    }

    /// Forgets what the decoder holds, after a seek.
    func flush() {
        cff_avcodec_flush_buffers(context)
        draining = false
    }
}

/// A packet the decoder refused, by FFmpeg's error code.
struct FFmpegCodecError: Error {
    let code: Int32
}
