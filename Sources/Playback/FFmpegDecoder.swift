import AudioFormats
import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// Decodes every format but MPEG audio (AAC and ALAC in MP4, raw AAC, Opus, Vorbis, FLAC) with
/// FFmpeg's libavformat, libavcodec and libswresample, loaded on first use: 16-bit PCM at the
/// stream's own rate and channels, encoder delay and padding trimmed (MP4 edit lists, Opus
/// pre-skip: libavcodec trims the start, the exact length here trims the end), and seeks that
/// land on the frame asked for (decoding from a little before it, so the output there is what
/// playing through would give). Not `Sendable`: one decoder, one thread.
public final class FFmpegDecoder: AudioDecoder {
    public let path: String
    public let format: AudioFormat
    public let frameCount: Int?
    private let container: AudioContainer
    private let demuxer: FFmpegDemuxer
    private let codec: FFmpegCodec
    private let converter: FFmpegConverter
    /// The timestamp (in the stream's time base) of the first frame decoded from the start:
    /// frame 0. Timestamps after a seek are placed against it.
    private let firstTimestamp: Int64
    /// The frame of `converter.pcm`'s next unread byte, and how many bytes are left there.
    private var nextFrame = 0
    private var unreadOffset = 0
    private var unreadBytes = 0
    /// After a seek: drop what is decoded before this frame.
    private var discardUntil: Int?
    private var pendingSeek: Int?
    /// After a seek, the last frame decoded before the target: its first frame, its length,
    /// and whether frames are counted from there rather than timed (see `decodeNext`).
    private var lastDecoded: (start: Int, count: Int, counting: Bool)?
    private var ended = false

    /// Decoding from this far before a seek's target lets the decoder settle (MDCT overlap,
    /// Opus's 80 ms of pre-roll) before the first frame heard.
    static let prerollSeconds = 0.2

    public convenience init(path: String, container: AudioContainer) throws(DecoderError) {
        try self.init(file: try AudioFile(path: path), container: container)
    }

    /// A file still arriving: reads wait for bytes until the arrival is over. The length is known for
    /// an MP4 (its index says it); seeks go as far as what is on disk.
    public convenience init(
        growingFile path: String, container: AudioContainer, arrival: Arrival
    ) throws(DecoderError) {
        try self.init(file: try AudioFile(path: path, arrival: arrival), container: container)
    }

    private init(file: AudioFile, container: AudioContainer) throws(DecoderError) {
        path = file.path
        self.container = container
        guard cffmpeg_load() == 0 else {
            throw .libraryMissing(path: path, library: String(cString: cffmpeg_missing()))
        }
        demuxer = try FFmpegDemuxer(file: file)
        codec = try FFmpegCodec(for: demuxer)
        // The format is the first frame's: HE-AAC's rate and Parametric Stereo's channels are
        // known only once decoded.
        guard let frame = try Self.firstFrame(of: codec, demuxer: demuxer, path: path) else {
            throw .unplayable(path: path, reason: "it holds no audio")
        }
        converter = FFmpegConverter(firstFrame: frame)
        format = converter.format
        firstTimestamp = Self.timestamp(of: frame) ?? 0
        guard converter.convert(frame) else { throw .decoding(path: path, reason: "cannot convert its samples") }
        unreadBytes = converter.pcmBytes
        frameCount = FFmpegLength.frames(of: demuxer, container: container, sampleRate: format.sampleRate, path: path)
    }

    private static func firstFrame(of codec: FFmpegCodec, demuxer: FFmpegDemuxer, path: String)
        throws(DecoderError) -> UnsafeMutablePointer<AVFrame>?
    {
        // A damaged packet or two at the start is passed over, as libmpg123 resyncs.
        for _ in 0..<8 {
            do throws(FFmpegCodecError) {
                return try codec.decodeFrame(from: demuxer) ? codec.frame : nil
            } catch {
                continue
            }
        }
        throw .unplayable(path: path, reason: "its audio cannot be decoded")
    }

    public var position: Int { pendingSeek ?? discardUntil ?? nextFrame }

    public var isWaitingForData: Bool { demuxer.file.isStarved }

    public var seekableFrames: Int? {
        guard demuxer.file.isGrowing else { return frameCount }
        return FFmpegLength.framesOnDisk(
            of: demuxer, sampleRate: format.sampleRate, firstTimestamp: firstTimestamp, position: position)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecoderError) -> Int {
        if let target = pendingSeek {
            pendingSeek = nil
            try perform(seekTo: target)
        }
        let bytesPerFrame = format.bytesPerFrame
        let wanted = buffer.count - buffer.count % bytesPerFrame
        var total = 0
        while total < wanted && !ended {
            if unreadBytes == 0 {
                do throws(FFmpegCodecError) {
                    if try !decodeNext() { ended = true }
                } catch {
                    // Hand over what was decoded before the bad packet; the next read goes on.
                    if total > 0 { return total }
                    throw .decoding(path: path, reason: FFmpegError.text(error.code))
                }
                continue
            }
            var frames = min(unreadBytes, wanted - total) / bytesPerFrame
            if let frameCount { frames = min(frames, frameCount - nextFrame) }
            guard frames > 0 else {
                ended = true
                break
            }
            let count = frames * bytesPerFrame
            (buffer.baseAddress! + total).copyMemory(from: converter.pcm.baseAddress! + unreadOffset, byteCount: count)
            total += count
            unreadOffset += count
            unreadBytes -= count
            nextFrame += frames
        }
        return total
    }

    public func seek(toFrame frame: Int) {
        let target = frameCount.map { min(max(0, frame), $0) } ?? max(0, frame)
        pendingSeek = target == position ? nil : target
    }

    /// Decodes and converts the next frame; after a seek, drops what comes before the target.
    private func decodeNext() throws(FFmpegCodecError) -> Bool {
        guard try codec.decodeFrame(from: demuxer), let frame = codec.frame else { return false }
        guard converter.convert(frame) else { throw FFmpegCodecError(code: -EINVAL) }
        unreadOffset = 0
        unreadBytes = converter.pcmBytes
        guard let target = discardUntil else { return true }
        let frames = unreadBytes / format.bytesPerFrame
        let stamped = Self.timestamp(of: frame).flatMap(frameIndex)
        // FFmpeg's Ogg reader times Vorbis packets by the durations its parser reckons, which
        // put the short block after a long one 448 frames late (the frames decoded are right).
        // No two frames in a row are both mistimed: once two agree (one starts where the one
        // before ended), the frames after them are counted, not timed.
        var start = stamped ?? target
        var counting = false
        if let last = lastDecoded {
            let (end, overflow) = last.start.addingReportingOverflow(last.count)
            counting = !overflow && (last.counting || stamped == end)
            if counting { start = end }
        }
        // A timestamp no frame index holds (a hostile file's granule) is no timestamp: the frame
        // is taken to be the target's, and the frames are counted from there.
        if start.addingReportingOverflow(frames).overflow || target.subtractingReportingOverflow(start).overflow {
            start = target
            counting = false
        }
        lastDecoded = (start, frames, counting)
        if start + frames <= target {
            unreadBytes = 0
            return true
        }
        let skip = max(0, target - start)
        unreadOffset = skip * format.bytesPerFrame
        unreadBytes -= unreadOffset
        nextFrame = start + skip
        discardUntil = nil
        return true
    }

    private func perform(seekTo target: Int) throws(DecoderError) {
        let start = max(0, target - Int(Self.prerollSeconds * Double(format.sampleRate)))
        let timeBase = demuxer.stream.pointee.time_base
        // A target past what 64 bits hold in the time base (an unknown length lets any through)
        // is sought as the last timestamp there is.
        let (scaled, overflowsScale) = Int64(start).multipliedReportingOverflow(by: Int64(timeBase.den))
        let (perSecond, overflowsRate) = Int64(format.sampleRate).multipliedReportingOverflow(by: Int64(timeBase.num))
        let (timestamp, overflowsStart) =
            perSecond > 0 && !overflowsRate ? firstTimestamp.addingReportingOverflow(scaled / perSecond) : (0, true)
        let code = demuxer.seek(to: overflowsScale || overflowsStart ? Int64.max : timestamp)
        guard code >= 0 else { throw .seeking(path: path, reason: FFmpegError.text(code)) }
        codec.flush()
        unreadBytes = 0
        ended = false
        discardUntil = target
        lastDecoded = nil
    }

    /// The frame index of a timestamp in the stream's time base; nil when 64 bits do not hold
    /// it (the timestamp comes from the file: a hostile one says anything).
    private func frameIndex(_ timestamp: Int64) -> Int? {
        let (elapsed, overflow) = timestamp.subtractingReportingOverflow(firstTimestamp)
        guard !overflow else { return nil }
        let timeBase = demuxer.stream.pointee.time_base
        return FFmpegLength.frameCount(elapsed, timeBase: timeBase, sampleRate: format.sampleRate)
    }

    private static func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64? {
        let best = frame.pointee.best_effort_timestamp
        if best != cffmpeg_no_timestamp() { return best }
        return frame.pointee.pts != cffmpeg_no_timestamp() ? frame.pointee.pts : nil
    }
}
