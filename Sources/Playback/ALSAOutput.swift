import CALSA
import Dispatch

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
    /// Frames in one period, the granularity of the device's wake-ups (a quarter of the buffer).
    public let periodFrames: Int
    /// Frames the buffer holds.
    public let bufferFrames: Int
    /// How far ahead `write` fills the buffer: what is written plays out at the old speed, volume
    /// and place before a change is heard, so a quick change wants little, a busy machine more.
    /// Starts at `startingFillMicroseconds`; once the device runs dry (`starved`) it is the whole
    /// buffer, today's margin, for as long as the device is open.
    public private(set) var fillFrames: Int
    /// The fill ahead to start with: a change heard within 100 ms (issue 23), above the period
    /// the device starts on.
    public static let startingFillMicroseconds = 70_000
    /// Frames written since the device was last prepared, and when what it has played (written
    /// less its delay) last grew (nil until it has played anything, and after a pause): a
    /// running device that plays nothing for a while has stalled.
    private var framesWritten = 0
    private var lastProgress: (played: Int, at: UInt64)?

    /// Opens `device` for `format`.
    /// - Parameter configuration: ALSA configuration text defining `device`, instead of the
    ///   system's and the user's (for tests: a private sound server's device), as `JackWatcher`.
    public init(device: String, format: AudioFormat, configuration: String? = nil) throws(OutputError) {
        calsa_silence_errors()
        var handle: OpaquePointer?
        let opened = Self.open(&handle, device, configuration: configuration)
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
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        // Both out-parameters are required (a nil one crashes alsa-lib).
        let sized = snd_pcm_get_params(handle, &buffer, &period)
        guard sized == 0, buffer > 0 else {
            snd_pcm_close(handle)
            throw .unsupportedFormat(name: device, format: format, reason: Self.reason(sized == 0 ? -EINVAL : sized))
        }
        bufferFrames = Int(buffer)
        periodFrames = Int(max(1, period))
        fillFrames = min(
            bufferFrames,
            max(periodFrames + periodFrames / 2, format.sampleRate * Self.startingFillMicroseconds / 1_000_000))
        refillFrames = max(1, min(fillFrames / 2, format.sampleRate * Self.refillMicroseconds / 1_000_000))
        // snd_pcm_set_params starts the device only once its buffer is full: after a seek (the
        // buffer dropped) the listener waited for a whole buffer, and a sound server that holds
        // a new stream until then (PulseAudio's ALSA plugin) waited longer. One period is enough
        // to start on, as mpv starts once it has written; non-blocking writes with a bounded
        // wait (`write`) keep the player's loop free for commands while the device is stalled.
        let tuned = Self.startEarly(handle, threshold: snd_pcm_uframes_t(periodFrames))
        guard tuned == 0, snd_pcm_nonblock(handle, 1) == 0 else {
            snd_pcm_close(handle)
            throw .unsupportedFormat(name: device, format: format, reason: Self.reason(tuned))
        }
        self.pcm = handle
        self.deviceName = device
        self.format = format
        // What the device can do; when ALSA cannot say (out of memory), the safe assumptions:
        // no pause (drop and refill instead), no card to watch the jacks of.
        var parameters: OpaquePointer?
        canPause =
            snd_pcm_hw_params_malloc(&parameters) == 0 && snd_pcm_hw_params_current(handle, parameters) == 0
            && snd_pcm_hw_params_can_pause(parameters) == 1
        if parameters != nil { snd_pcm_hw_params_free(parameters) }
        var info: OpaquePointer?
        let number =
            snd_pcm_info_malloc(&info) == 0 && snd_pcm_info(handle, info) == 0 ? snd_pcm_info_get_card(info) : -1
        if info != nil { snd_pcm_info_free(info) }
        card = number >= 0 ? Int(number) : nil
    }

    deinit {
        snd_pcm_drop(pcm)
        snd_pcm_close(pcm)
    }

    private static func open(_ handle: inout OpaquePointer?, _ device: String, configuration: String?) -> Int32 {
        guard let configuration else { return snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0) }
        var config: OpaquePointer?
        var input: OpaquePointer?
        guard snd_config_top(&config) == 0 else { return -ENOMEM }
        defer { snd_config_delete(config) }
        let loaded = configuration.withCString { text in
            snd_input_buffer_open(&input, text, strlen(text)) == 0 && snd_config_load(config, input) == 0
        }
        if let input { snd_input_close(input) }
        guard loaded else { return -EINVAL }
        return snd_pcm_open_lconf(&handle, device, SND_PCM_STREAM_PLAYBACK, 0, config)
    }

    /// Sets the start threshold (and keeps the rest of the software parameters).
    private static func startEarly(_ pcm: OpaquePointer, threshold: snd_pcm_uframes_t) -> Int32 {
        var parameters: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&parameters) == 0 else { return -ENOMEM }
        defer { snd_pcm_sw_params_free(parameters) }
        var result = snd_pcm_sw_params_current(pcm, parameters)
        if result == 0 { result = snd_pcm_sw_params_set_start_threshold(pcm, parameters, threshold) }
        if result == 0 { result = snd_pcm_sw_params(pcm, parameters) }
        return result
    }

    public func write(_ pcm: UnsafeRawBufferPointer) throws(OutputError) -> WriteResult {
        let frames = pcm.count / format.bytesPerFrame
        var written = 0
        var suspended = suspendedUntold
        suspendedUntold = false
        var room = 0
        // Twice at most: a write that finds the device run dry recovers it and writes again.
        for _ in 0..<2 where written < frames {
            // Within a refill, what was left of the room is still there (the device only plays):
            // the sound server is not asked again.
            room = refilling && roomLeft > 0 ? roomLeft : try roomUnderFill(suspended: &suspended)
            // Each write wakes the device (and a sound server's thread): once a refill's worth
            // fits, it is filled to the top, over as many writes as that takes, and then left
            // until a refill's worth fits again.
            if room >= refillFrames { refilling = true }
            guard refilling, room > 0 else { break }
            let result = snd_pcm_writei(
                self.pcm, pcm.baseAddress! + written * format.bytesPerFrame,
                snd_pcm_uframes_t(min(room, frames - written)))
            if result > 0 {
                written += result
                framesWritten += result
                room -= result
                break
            }
            if result == -EAGAIN {
                room = 0
                break
            }
            if result < 0 {
                roomLeft = 0
                suspended = try recover(from: Int32(result), during: "writing") || suspended
            }
        }
        roomLeft = max(0, room)
        if room <= 0 { refilling = false }
        return WriteResult(
            frames: written, suspended: suspended, readyIn: written == frames ? 0 : secondsUntilRefill(room))
    }

    public func room() throws(OutputError) -> DeviceRoom {
        if !(refilling && roomLeft > 0) {
            // A suspend found here is told by the next write, as one found by a write is.
            let room = try roomUnderFill(suspended: &suspendedUntold)
            if room >= refillFrames { refilling = true }
            roomLeft = max(0, room)
        }
        return refilling && roomLeft > 0
            ? DeviceRoom(frames: roomLeft) : DeviceRoom(frames: 0, readyIn: secondsUntilRefill(roomLeft))
    }

    /// How long the device takes to play enough that a refill fits, when `room` fits now: a
    /// running device plays at its rate. One that has not started yet (a sound server opening
    /// its stream) is looked at again a quarter period later.
    private func secondsUntilRefill(_ room: Int) -> Double {
        guard running else {
            return Double(max(1, periodFrames / 4)) / Double(format.sampleRate)
        }
        return max(0.001, Double(refillFrames - max(0, room)) / Double(format.sampleRate))
    }

    /// What a write waits to have room for before it fills the device again (`refillMicroseconds`).
    private let refillFrames: Int
    /// Each refill wakes the device, and a sound server's thread: 40 times a second, the device
    /// never holding less than the fill less this (45 ms at the start; a busy machine's late
    /// wake-up within that is not heard).
    public static let refillMicroseconds = 25_000
    /// Filling to the top: a refill's worth fitted, and the fill has not been reached since; and
    /// the room left when last written.
    private var refilling = false
    private var roomLeft = 0
    /// The device was running when last asked.
    private var running = false
    /// The system suspended the device (resumed since), found while looking at its room.
    private var suspendedUntold = false

    /// Frames `write` may add now: up to `fillFrames` unheard. A running device found with
    /// (nearly) nothing left, or playing nothing for two periods, has run dry: the fill becomes
    /// the whole buffer before it is refilled.
    private func roomUnderFill(suspended: inout Bool) throws(OutputError) -> Int {
        let state = snd_pcm_state(pcm)
        running = state == SND_PCM_STATE_RUNNING
        switch state {
        case SND_PCM_STATE_RUNNING: break
        // Not started: all that was written is still to play. (PulseAudio's plugin, asked for
        // its delay before a new stream has started, can wait for a timing report that never
        // comes.) A device that did not start once written past its threshold (a period) never
        // will (ALSA's `null`, and the `file` plugin over it): as much as it takes.
        case SND_PCM_STATE_PREPARED: return framesWritten < periodFrames ? fillFrames - framesWritten : bufferFrames
        case SND_PCM_STATE_XRUN:
            suspended = try recover(from: -EPIPE, during: "writing") || suspended
            return fillFrames
        default: return fillFrames
        }
        var delay: snd_pcm_sframes_t = 0
        let measured = snd_pcm_delay(pcm, &delay)
        if measured < 0 {
            suspended = try recover(from: measured, during: "measuring") || suspended
            return 0
        }
        let unheard = max(0, delay)
        let now = DispatchTime.now().uptimeNanoseconds
        let played = framesWritten - unheard
        // From the first frame played on: a sound server may take a while to start a stream.
        if played > (lastProgress?.played ?? 0) { lastProgress = (played, now) }
        let stalled = lastProgress.map {
            now - $0.at > 2 * UInt64(periodFrames) * 1_000_000_000 / UInt64(format.sampleRate)
        }
        // PulseAudio's plugin does not always report an underrun, and then its stream waits for
        // its prebuffer (the buffer less a period) before it plays again: more than the starting
        // fill, so a stall is an underrun too.
        if unheard < format.sampleRate / 200 || stalled == true { starved() }
        return fillFrames - unheard
    }

    /// The device ran dry: fill the whole buffer from now on.
    private func starved() { fillFrames = bufferFrames }

    public func pause() throws(OutputError) -> PauseEffect {
        // Not started yet (the buffer is still filling; ALSA's null device never starts):
        // nothing is sounding, so writing nothing more is pause enough.
        guard snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING else { return .held }
        if canPause && snd_pcm_pause(pcm, 1) == 0 {
            holding = true
            lastProgress = nil
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
        lastProgress = nil
        let result = snd_pcm_pause(pcm, 0)
        if result < 0 { _ = try recover(from: result, during: "resuming") }
    }

    public func discard() {
        holding = false
        // A device these fail on fails the next write too, where `recover` deals with it (or
        // reports the device lost): nothing is lost by not failing here.
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
        restartCounting()
    }

    public func drain() {
        if holding { try? resume() }
        // Non-blocking, drain would return at once (-EAGAIN) and leave the end unplayed.
        snd_pcm_nonblock(pcm, 0)
        snd_pcm_drain(pcm)
        snd_pcm_nonblock(pcm, 1)
        snd_pcm_prepare(pcm)
        restartCounting()
    }

    /// The device was prepared again: it starts over, from nothing written.
    private func restartCounting() {
        framesWritten = 0
        refilling = false
        roomLeft = 0
        lastProgress = nil
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
        if error == -EPIPE { starved() }
        if error == -EPIPE || error == -ESTRPIPE, snd_pcm_recover(pcm, error, 1) == 0 {
            restartCounting()
            return error == -ESTRPIPE
        }
        throw .deviceLost(name: deviceName, reason: "\(operation): \(Self.reason(error))")
    }

    private static func reason(_ code: Int32) -> String { String(cString: snd_strerror(code)) }
}
