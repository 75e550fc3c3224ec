import CFFmpeg

/// One owner of a `SwrContext` turning decoded frames (planar float for AAC, Opus and Vorbis,
/// 16 or 32-bit integers for FLAC and ALAC) into interleaved 16-bit PCM of the stream's first
/// format: no resampling and no dither, as the `ffmpeg` command converts. A frame of another rate
/// or layout (a stream that changes mid-way) is resampled to the first. Not `Sendable`.
final class FFmpegConverter {
    let format: AudioFormat
    private var context: OpaquePointer?
    private var outputLayout = AVChannelLayout()
    /// The input the context is set up for.
    private var input: (rate: Int32, sampleFormat: Int32, layout: AVChannelLayout)?
    /// The converted PCM of the last frame.
    private(set) var pcm = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private(set) var pcmBytes = 0

    init(firstFrame frame: UnsafeMutablePointer<AVFrame>) {
        format = AudioFormat(
            sampleRate: Int(frame.pointee.sample_rate), channels: Int(frame.pointee.ch_layout.nb_channels))
        outputLayout = frame.pointee.ch_layout
    }

    deinit {
        cff_swr_free(&context)
        pcm.deallocate()
    }

    /// Converts `frame` into `pcm` (its first `pcmBytes` bytes).
    func convert(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        let rate = frame.pointee.sample_rate
        let sampleFormat = frame.pointee.format
        let changed = input.map {
            $0.rate != rate || $0.sampleFormat != sampleFormat || !Self.same($0.layout, frame.pointee.ch_layout)
        }
        if changed ?? true {
            guard setUp(frame) else { return false }
        }
        // A changed rate makes more or fewer frames out than in; room for both, and the delay.
        let capacity = Int(frame.pointee.nb_samples) * format.sampleRate / max(1, Int(rate)) + 256
        let needed = capacity * format.bytesPerFrame
        if pcm.count < needed {
            pcm.deallocate()
            pcm = .allocate(byteCount: needed, alignment: 16)
        }
        var output: UnsafeMutablePointer<UInt8>? = pcm.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let planes = UnsafeMutableRawPointer(frame.pointee.extended_data!).assumingMemoryBound(
            to: UnsafePointer<UInt8>?.self)
        let converted = cff_swr_convert(context, &output, Int32(capacity), planes, frame.pointee.nb_samples)
        guard converted >= 0 else { return false }
        pcmBytes = Int(converted) * format.bytesPerFrame
        return true
    }

    private func setUp(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        cff_swr_free(&context)
        var layout = frame.pointee.ch_layout
        let code = cff_swr_alloc_set_opts2(
            &context, &outputLayout, AV_SAMPLE_FMT_S16, Int32(format.sampleRate), &layout,
            AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        guard code >= 0, cff_swr_init(context) >= 0 else {
            cff_swr_free(&context)
            input = nil
            return false
        }
        input = (frame.pointee.sample_rate, frame.pointee.format, layout)
        return true
    }

    private static func same(_ a: AVChannelLayout, _ b: AVChannelLayout) -> Bool {
        a.order == b.order && a.nb_channels == b.nb_channels && a.u.mask == b.u.mask
    }
}
