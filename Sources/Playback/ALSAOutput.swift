import CALSA

#if canImport(Glibc)
    import Glibc
#endif

/// One owner of an ALSA PCM (`snd_pcm_t`) opened for playback of 16-bit interleaved PCM.
///
/// Every ALSA call of the player is in this file, and recovery lives in one function
/// (`recover`), as in mpv's ao_alsa. Not `Sendable`: the player's thread owns it.
public final class ALSAOutput: AudioOutput {
    public let deviceName: String
    public let format: AudioFormat
    /// The sound card the device plays on, when it is one (not for `null`, `pulse`, files).
    public let card: Int?
    /// The device refused the stream's rate: ALSA resamples it.
    public let resamples: Bool
    private let pcm: OpaquePointer
    private let canPause: Bool
    /// True while `snd_pcm_pause` holds the buffer (so `resume` must release it).
    private var holding = false

    /// How much audio the device buffers: enough to ride out a slow disk or a busy machine,
    /// short enough that pause, seek and quit feel immediate.
    public static let latencyMicroseconds: UInt32 = 200_000

    /// Opens `device` for `format`.
    public init(device: String, format: AudioFormat) throws(OutputError) {
        calsa_silence_errors()
        var handle: OpaquePointer?
        let opened = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0)
        guard opened == 0, let handle else {
            if opened == -EBUSY { throw .busy(name: device) }
            throw .noDevice(name: device, reason: Self.reason(opened))
        }
        // The stream's own rate; only a device that refuses it gets ALSA's resampling (plug).
        func configure(resampling: Int32) -> Int32 {
            snd_pcm_set_params(
                handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(format.channels),
                UInt32(format.sampleRate), resampling, Self.latencyMicroseconds)
        }
        var configured = configure(resampling: 0)
        resamples = configured != 0 && configure(resampling: 1) == 0
        if resamples { configured = 0 }
        guard configured == 0 else {
            snd_pcm_close(handle)
            throw .unsupportedFormat(name: device, format: format, reason: Self.reason(configured))
        }
        self.pcm = handle
        self.deviceName = device
        self.format = format
        var parameters: OpaquePointer?
        snd_pcm_hw_params_malloc(&parameters)
        defer { snd_pcm_hw_params_free(parameters) }
        canPause = snd_pcm_hw_params_current(handle, parameters) == 0 && snd_pcm_hw_params_can_pause(parameters) == 1
        var info: OpaquePointer?
        snd_pcm_info_malloc(&info)
        defer { snd_pcm_info_free(info) }
        let number = snd_pcm_info(handle, info) == 0 ? snd_pcm_info_get_card(info) : -1
        card = number >= 0 ? Int(number) : nil
    }

    deinit {
        snd_pcm_drop(pcm)
        snd_pcm_close(pcm)
    }

    @discardableResult
    public func write(_ pcm: UnsafeRawBufferPointer) throws(OutputError) -> Bool {
        let frames = pcm.count / format.bytesPerFrame
        var written = 0
        var suspended = false
        while written < frames {
            let result = snd_pcm_writei(
                self.pcm, pcm.baseAddress! + written * format.bytesPerFrame, snd_pcm_uframes_t(frames - written))
            if result >= 0 {
                written += result
            } else {
                suspended = try recover(from: Int32(result), during: "writing") || suspended
            }
        }
        return suspended
    }

    public func pause() throws(OutputError) -> PauseEffect {
        // Not started yet (the buffer is still filling; ALSA's null device never starts):
        // nothing is sounding, so writing nothing more is pause enough.
        guard snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING else { return .held }
        if canPause && snd_pcm_pause(pcm, 1) == 0 {
            holding = true
            return .held
        }
        // A running device that cannot hold its buffer (some hardware): drop it, and let the
        // player decode the unheard frames again on resume.
        let unheard = unplayedFrames
        discard()
        return .dropped(count: unheard)
    }

    public func resume() throws(OutputError) {
        guard holding else { return }
        holding = false
        let result = snd_pcm_pause(pcm, 0)
        if result < 0 { _ = try recover(from: result, during: "resuming") }
    }

    public func discard() {
        holding = false
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
    }

    public func drain() {
        if holding { try? resume() }
        snd_pcm_drain(pcm)
        snd_pcm_prepare(pcm)
    }

    public var unplayedFrames: Int {
        var delay: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &delay) == 0 ? max(0, delay) : 0
    }

    /// The one place ALSA errors are judged. An interrupted call is retried; an underrun (-EPIPE)
    /// is recovered silently, no interruption; a system suspend (-ESTRPIPE) is recovered (resume,
    /// else prepare) and reported: returns true. Anything recovery cannot fix (-ENODEV, -EBADFD,
    /// -EIO: the device or its sound server is gone) is `deviceLost`.
    private func recover(from error: Int32, during operation: String) throws(OutputError) -> Bool {
        if error == -EAGAIN || error == -EINTR { return false }
        if error == -EPIPE || error == -ESTRPIPE, snd_pcm_recover(pcm, error, 1) == 0 { return error == -ESTRPIPE }
        throw .deviceLost(name: deviceName, reason: "\(operation): \(Self.reason(error))")
    }

    private static func reason(_ code: Int32) -> String { String(cString: snd_strerror(code)) }
}
