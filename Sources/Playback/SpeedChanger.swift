import CSonic

/// Speed with the pitch kept, by libsonic (the algorithm made for speech that AntennaPod and
/// Pocket Casts use): one owner of a `sonicStream`. At 1× with nothing held it is not in the sound
/// path at all, so what reaches the device stays bit for bit the decoder's.
///
/// Its latency counts each frame given out as `speed` media frames, kept within what libsonic can
/// hold (under two of its longest pitch periods): it drops or repeats whole pitch periods, rounded
/// to frames, so its ratio strays from the speed (0.1-0.7 % at 3×), and counted alone the
/// position would drift by seconds over an hour. Bounded, the media clock is never more than
/// those few frames (30 ms) off, and a drained stream gives the rest back exactly.
public final class SpeedChanger: AudioFilter {
    /// The speed from the next `process` on; libsonic changes pace within a pitch period, so a
    /// change has no click, no gap and no repeat.
    public var speed = 1.0
    private var stream: sonicStream?
    private var format = AudioFormat(sampleRate: 44_100, channels: 2)
    /// What libsonic gave out last, owned here until the next call.
    private var output = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// Media frames taken in and not yet accounted for by what was given out.
    private var held = 0.0

    public init(speed: Double = 1) { self.speed = speed }

    deinit {
        if let stream { sonicDestroyStream(stream) }
        output.deallocate()
    }

    public func configure(_ input: AudioFormat) -> AudioFormat {
        format = input
        reset()
        return input
    }

    public func process(_ pcm: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        if speed == 1 && held == 0 { return pcm }
        guard let stream = openedStream() else { return pcm }
        sonicSetSpeed(stream, Float(speed))
        let frames = pcm.count / format.bytesPerFrame
        // libsonic only fails to grow its buffers when memory runs out: the sound then goes on
        // at 1× rather than stop.
        guard sonicWriteShortToStream(stream, pcm.baseAddress!.assumingMemoryBound(to: Int16.self), Int32(frames)) != 0
        else {
            reset()
            return pcm
        }
        held += Double(frames)
        return readAvailable(from: stream)
    }

    public func drain() -> UnsafeMutableRawBufferPointer {
        guard let stream, held != 0 else { return .init(start: nil, count: 0) }
        sonicFlushStream(stream)
        let tail = readAvailable(from: stream)
        reset()
        return tail
    }

    public func reset() {
        if let stream { sonicDestroyStream(stream) }
        stream = nil
        held = 0
    }

    public var latency: Int { Int(held.rounded()) }

    private func openedStream() -> sonicStream? {
        if stream == nil { stream = sonicCreateStream(Int32(format.sampleRate), Int32(format.channels)) }
        return stream
    }

    /// Everything libsonic has ready, in `output`.
    private func readAvailable(from stream: sonicStream) -> UnsafeMutableRawBufferPointer {
        let frames = Int(sonicSamplesAvailable(stream))
        let bytes = frames * format.bytesPerFrame
        if bytes > output.count {
            output.deallocate()
            output = .allocate(byteCount: bytes, alignment: 16)
        }
        let read = Int(
            sonicReadShortFromStream(stream, output.baseAddress?.assumingMemoryBound(to: Int16.self), Int32(frames)))
        held = min(max(0, held - Double(read) * speed), Double(2 * (format.sampleRate / Int(SONIC_MIN_PITCH))))
        // At 1× libsonic passes everything through: once it holds nothing, it leaves the path.
        if speed == 1 && sonicSamplesAvailable(stream) == 0 { held = 0 }
        return UnsafeMutableRawBufferPointer(rebasing: output[..<(read * format.bytesPerFrame)])
    }
}
