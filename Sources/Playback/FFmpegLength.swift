import AudioFormats
import CFFmpeg

/// How long a stream FFmpeg reads is, in PCM frames as the decoder gives them (encoder delay and
/// padding trimmed), and how far a file still arriving can be played.
enum FFmpegLength {
    /// The exact length, from the container where it says (an MP4's index with its edit list,
    /// the last Ogg granule less Opus's pre-skip, FLAC's stream information), else from a scan
    /// of the packets on a demuxer of its own (raw AAC has no index). Nil for a file still
    /// arriving, unless it is an MP4, whose index is read whole before the first frame; nil for
    /// a length no file could have (a granule of 2⁶³ - 1 in a hostile Ogg page): unknown, as for
    /// a stream with no length, so the file still plays.
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
        guard var frames = frameCount(stream.pointee.duration, timeBase: timeBase, sampleRate: sampleRate),
            frames >= 0
        else { return nil }
        if case .ogg = container {
            // The last granule counts Opus's pre-skip, which libavcodec drops.
            frames = max(0, frames - Int(stream.pointee.codecpar.pointee.initial_padding))
        }
        return growing || isPossible(frames, sampleRate: sampleRate, bytes: demuxer.file.availableBytes) ? frames : nil
    }

    /// Whether a complete file of `bytes` can hold `frames`: no codec spends less than a byte a
    /// second (FLAC's silence and Opus's DTX take hundreds of frames a byte, not thousands), so a
    /// longer length is a container's lie, and would overflow what is computed from it (MPRIS
    /// gives lengths in microseconds).
    static func isPossible(_ frames: Int, sampleRate: Int, bytes: Int) -> Bool {
        let (limit, overflow) = bytes.multipliedReportingOverflow(by: sampleRate)
        return overflow || frames <= limit
    }

    /// The frames the packets of `path` decode to, from their durations.
    private static func scan(_ path: String, sampleRate: Int) -> Int? {
        guard let file = try? AudioFile(path: path), let demuxer = try? FFmpegDemuxer(file: file) else { return nil }
        var packet = cff_av_packet_alloc()
        defer { cff_av_packet_free(&packet) }
        guard let packet else { return nil }
        var total: Int64 = 0
        var overflow = false
        while demuxer.readPacket(into: packet) {
            if !overflow { (total, overflow) = total.addingReportingOverflow(packet.pointee.duration) }
            cff_av_packet_unref(packet)
        }
        let timeBase = demuxer.stream.pointee.time_base
        guard !overflow, let frames = frameCount(total, timeBase: timeBase, sampleRate: sampleRate), frames >= 0,
            isPossible(frames, sampleRate: sampleRate, bytes: file.availableBytes)
        else { return nil }
        return frames
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
            // A hostile index's positions and sizes may add past Int64.max: such an entry is not on disk.
            func isOnDisk(_ entry: UnsafePointer<AVIndexEntry>) -> Bool {
                let (end, overflow) = entry.pointee.pos.addingReportingOverflow(Int64(entry.pointee.size))
                return !overflow && end <= available
            }
            guard let first = cff_avformat_index_get_entry(stream, 0), isOnDisk(first) else { return position }
            while low < high {
                let middle = (low + high + 1) / 2
                guard let entry = cff_avformat_index_get_entry(stream, middle) else { break }
                if isOnDisk(entry) { low = middle } else { high = middle - 1 }
            }
            guard let last = cff_avformat_index_get_entry(stream, low) else { return position }
            let (elapsed, overflow) = last.pointee.timestamp.subtractingReportingOverflow(firstTimestamp)
            guard !overflow, let frames = frameCount(elapsed, timeBase: timeBase, sampleRate: sampleRate) else {
                return position
            }
            return max(position, frames)
        }
        let bitRate =
            stream.pointee.codecpar.pointee.bit_rate > 0
            ? stream.pointee.codecpar.pointee.bit_rate : demuxer.context?.pointee.bit_rate ?? 0
        guard bitRate > 0 else { return position }
        let ahead = max(0, available - Int64(demuxer.file.offset))
        return position + Int(ahead * 8 * Int64(sampleRate) / bitRate)
    }

    /// `duration` (in `timeBase`) in frames at `sampleRate`, rounded; nil when that does not fit
    /// in 64 bits (the duration comes from the file: a hostile one says anything) or the time
    /// base is not a time.
    static func frameCount(_ duration: Int64, timeBase: AVRational, sampleRate: Int) -> Int? {
        let denominator = Int64(timeBase.den)
        let (perUnit, overflowsRate) = Int64(sampleRate).multipliedReportingOverflow(by: Int64(timeBase.num))
        let (scaled, overflowsScale) = duration.multipliedReportingOverflow(by: perUnit)
        let (rounded, overflowsRounding) = scaled.addingReportingOverflow(denominator / 2)
        guard denominator > 0, !overflowsRate, !overflowsScale, !overflowsRounding else { return nil }
        return Int(rounded / denominator)
    }
}
