import AudioFormats
import CFFmpeg

/// How long a stream FFmpeg reads is, in PCM frames as the decoder gives them (encoder delay and
/// padding trimmed), and how far a file still arriving can be played.
enum FFmpegLength {
    /// The exact length, from the container where it says (an MP4's index with its edit list,
    /// the last Ogg granule less Opus's pre-skip, FLAC's stream information), else from a scan
    /// of the packets on a demuxer of its own (raw AAC has no index). Nil for a file still
    /// arriving, unless it is an MP4, whose index is read whole before the first frame.
    static func frames(of demuxer: FFmpegDemuxer, container: AudioContainer, sampleRate: Int, path: String) -> Int? {
        let growing = demuxer.file.isGrowing
        guard !growing || container == .mp4, let context = demuxer.context else { return nil }
        let stream = demuxer.stream
        let timeBase = stream.pointee.time_base
        if context.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE
            || stream.pointee.duration == cffmpeg_no_timestamp()
        {
            return growing ? nil : scan(path, sampleRate: sampleRate)
        }
        var frames = frameCount(stream.pointee.duration, timeBase: timeBase, sampleRate: sampleRate)
        if case .ogg = container {
            // The last granule counts Opus's pre-skip, which libavcodec drops.
            frames -= Int(stream.pointee.codecpar.pointee.initial_padding)
        }
        return max(0, frames)
    }

    /// The frames the packets of `path` decode to, from their durations.
    private static func scan(_ path: String, sampleRate: Int) -> Int? {
        guard let file = try? AudioFile(path: path), let demuxer = try? FFmpegDemuxer(file: file) else { return nil }
        var packet = cff_av_packet_alloc()
        defer { cff_av_packet_free(&packet) }
        guard let packet else { return nil }
        var total: Int64 = 0
        while demuxer.readPacket(into: packet) {
            total += packet.pointee.duration
            cff_av_packet_unref(packet)
        }
        return frameCount(total, timeBase: demuxer.stream.pointee.time_base, sampleRate: sampleRate)
    }

    /// How far the bytes on disk of a file still arriving reach: for an MP4, the last sample of
    /// its index that is all there; else the bytes beyond the read position at the bit rate.
    static func framesOnDisk(
        of demuxer: FFmpegDemuxer, sampleRate: Int, firstTimestamp: Int64, position: Int
    ) -> Int {
        let available = Int64(demuxer.file.availableBytes)
        let stream = demuxer.stream
        let timeBase = stream.pointee.time_base
        let entries = cff_avformat_index_get_entries_count(stream)
        if entries > 0 {
            // Binary search for the last entry that ends on disk (an MP4's samples lie in order).
            var low: Int32 = 0
            var high = entries - 1
            guard let first = cff_avformat_index_get_entry(stream, 0), first.pointee.pos + Int64(first.pointee.size) <= available
            else { return position }
            while low < high {
                let middle = (low + high + 1) / 2
                guard let entry = cff_avformat_index_get_entry(stream, middle) else { break }
                if entry.pointee.pos + Int64(entry.pointee.size) <= available { low = middle } else { high = middle - 1 }
            }
            guard let last = cff_avformat_index_get_entry(stream, low) else { return position }
            return max(position, frameCount(last.pointee.timestamp - firstTimestamp, timeBase: timeBase, sampleRate: sampleRate))
        }
        let bitRate = stream.pointee.codecpar.pointee.bit_rate > 0
            ? stream.pointee.codecpar.pointee.bit_rate : demuxer.context?.pointee.bit_rate ?? 0
        guard bitRate > 0 else { return position }
        let ahead = max(0, available - Int64(demuxer.file.offset))
        return position + Int(ahead * 8 * Int64(sampleRate) / bitRate)
    }

    /// `duration` (in `timeBase`) in frames at `sampleRate`, rounded.
    static func frameCount(_ duration: Int64, timeBase: AVRational, sampleRate: Int) -> Int {
        let scaled = duration * Int64(sampleRate) * Int64(timeBase.num)
        let denominator = Int64(timeBase.den)
        return Int((scaled + denominator / 2) / denominator)
    }
}
