import Dispatch

/// What the player shows after each event and a few times a second while playing.
public struct PlayerStatus: Equatable, Sendable {
    /// What just happened; nil for a periodic update.
    public var event: PlayerEvent?
    /// The media frame being heard now.
    public var position: Int
    public var frameCount: Int?
    public var sampleRate: Int
    public var state: PlayerState
    public var volume: Int
    public var speed: Double = 1
    /// The sleep timer: the listening it leaves, or the end of the episode; nil: none.
    public var sleep: SleepTimer?
    /// The chapter being heard (an index of the engine's `chapters`); nil before the first, or none.
    public var chapter: Int?

    public var seconds: Double { Double(position) / Double(sampleRate) }
    public var duration: Double? { frameCount.map { Double($0) / Double(sampleRate) } }
}

/// Plays one episode: decodes, filters (the volume last), writes to the device, and between two
/// writes carries out the commands that arrived. One thread, one loop, read top to bottom (as
/// mpv's `run_playloop`): commands → stop? → paused? → decode → filter → write → report.
/// Positions are media frames, told from device frames by the `MediaClock`.
public final class Player {
    private let decoder: any AudioDecoder
    private let device: AudioDevice
    private let commands: CommandQueue
    public private(set) var engine: PlaybackEngine
    /// Stop after this many media frames have been played (`--for`).
    private let limit: Int?
    /// The media frame the episode ends at, before the file's end (a skipped outro); nil: the file's end.
    private let end: Int?
    /// Between the decoder and the device; the device opens at its output format.
    private let filters: FilterChain
    private let volume = SoftwareVolume()
    /// Always in the chain, and out of the sound path at 1×.
    private let speed = SpeedChanger()
    /// The sleep timer's fade, after the speed (it counts device frames); out of the sound path
    /// except while fading.
    private let fade: SleepFade
    /// The device frame the fade began at, and the media frame it carried: where a sleep timer
    /// leaves the episode.
    private var fadeBegan: (device: Int, media: Int)?
    private let outputFormat: AudioFormat
    /// The device's output while there is one: opened on the first write, let go when the device
    /// is lost, opened again on the next write after that.
    private var output: (any AudioOutput)?
    /// Which media frame the device frames written reach, and the media and device frames played.
    public private(set) var clock: MediaClock
    /// When to try a busy device again, and the delay after that (doubling up to a cap).
    private var busyRetry: (at: DispatchTime, delay: Double)?

    /// The most media frames decoded at a time at 1×, and as many more as the speed plays in the
    /// same time: about 46 ms of sound at 44.1 kHz. Never more than the device takes now (at the
    /// speed), so what waits unwritten, made at the old speed or volume, stays a few frames.
    static let chunkFrames = 2048
    /// Seconds of media between periodic reports while playing (redraws, position saves): at 3×
    /// a report comes every 1/12 s, so a save counted in media time is never late.
    static let reportInterval = 0.25
    /// Consecutive undecodable reads after which the file is given up.
    static let maxConsecutiveDecodeFailures = 8
    /// The first and the longest wait before opening a busy device again.
    static let busyRetryDelays = (first: 0.25, longest: 5.0)

    public var format: AudioFormat { decoder.format }
    /// The device's rate: what `clock`'s device frames are counted in.
    public var deviceSampleRate: Int { outputFormat.sampleRate }

    /// The media frame the listener hears now.
    public var position: Int { clock.position(deviceHolding: deviceHolding) }

    /// - Parameters:
    ///   - engine: carries the volume over from the previous episode.
    ///   - limit: media frames to play before stopping with `.limitReached`; nil plays to the end.
    ///   - filters: between the decoder and the speed (then the volume), in the order the sound
    ///     goes through them.
    ///   - fadeLevel: the sleep timer's fade as the previous episode left it (`fadeLevel`).
    ///   - end: the media frame the episode ends at (`.endOfEpisode`) when it is not the file's end.
    public init(
        decoder: any AudioDecoder, device: AudioDevice, commands: CommandQueue, engine: PlaybackEngine, limit: Int?,
        filters: [any AudioFilter] = [], fadeLevel: Double = 1, end: Int? = nil
    ) {
        self.end = end
        self.fade = SleepFade(level: fadeLevel)
        self.decoder = decoder
        self.device = device
        self.commands = commands
        self.engine = engine
        self.limit = limit
        self.filters = FilterChain(filters + [speed, fade], volume: volume)
        self.outputFormat = self.filters.configure(decoder.format)
        self.clock = MediaClock(startingAt: decoder.position)
    }

    /// Plays until the episode ends or a command stops it; returns why. `report` is called on
    /// this thread for every event and periodically.
    /// - Throws: `DecoderError` when the file cannot be decoded any further, `OutputError` when
    ///   the device cannot be opened at all. `position` stays valid for saving.
    public func play(report: (PlayerStatus) -> Void) throws -> StopReason {
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.chunkFrames(at: PlaybackSpeed.range.upperBound) * decoder.format.bytesPerFrame,
            alignment: 16)
        defer { buffer.deallocate() }
        var lastReport = DispatchTime.now()
        func send(_ event: PlayerEvent?) {
            lastReport = DispatchTime.now()
            report(status(event))
        }
        // Started means sounding: a device that cannot be opened at all fails before.
        _ = try openOutput(send)
        send(.started(at: position))
        while true {
            // Paused, or a stream waiting for its download: sleep until a command comes or there
            // is something to do, so keys work all the while.
            // Everything before the sleep timer's deadline written, until the device has played it.
            // Playing, until the device has room for what it did not take: a command wakes it.
            let wait =
                engine.isPaused
                ? waitWhilePaused
                : decoder.isWaitingForData || waitsForSkippedChapterEnd
                    ? 0.05 : sleepsAfterWritten ? 0.02 : deviceReadyIn
            // In the order they came. Once one ends the episode, the rest are for what plays
            // next (`next` then `prev` must not become a `prev` of this episode, then `next`),
            // but a quit or a signal still makes the stop stronger.
            var later: [PlayerCommand] = []
            for command in commands.take(waitingUpTo: wait) {
                if engine.stopReason == nil || command.endsTheSession {
                    try handle(command, send)
                } else {
                    later.append(command)
                }
            }
            commands.giveBack(later)
            if sleepTimerHasRunOut() { engine.finish(.sleepTimer) }
            if let reason = engine.stopReason {
                finish(reason)
                send(.stopped(reason, at: position))
                return reason
            }
            if engine.isPaused {
                try retryBusyDevice(send)
                send(nil)
                continue
            }
            try feedOutput(from: buffer, send)
            if DispatchTime.now().uptimeNanoseconds - lastReport.uptimeNanoseconds
                >= UInt64(Self.reportInterval / max(1, engine.speed) * 1e9)
            {
                send(nil)
            }
        }
    }

    private func handle(_ command: PlayerCommand, _ send: (PlayerEvent?) -> Void) throws {
        for action in engine.handle(command, at: timeline) { try perform(action, send) }
    }

    /// Paused, the loop wakes for commands, once a second for the now-playing line, and when a
    /// busy device is to be tried again.
    private var waitWhilePaused: Double {
        guard let busyRetry else { return 1 }
        let now = DispatchTime.now().uptimeNanoseconds
        let due = busyRetry.at.uptimeNanoseconds
        return due > now ? min(1, Double(due - now) / 1e9) : 0.001
    }

    /// A stream is in a skipped chapter whose end has not arrived yet.
    private var waitsForSkippedChapterEnd = false

    /// Consecutive reads that failed to decode, and whether any audio came out at all.
    private var decodeFailures = 0
    private var decodedAny = false

    /// Filtered frames the device has not taken yet (its write ran out of time), written before
    /// anything new is decoded. Forgotten whenever the decoder is moved (a seek, a drop, a lost
    /// device): they are decoded again.
    private var pending: UnsafeRawBufferPointer?
    /// Seconds until the device takes more, as the last write or look at its room said.
    private var deviceReadyIn = 0.0
    /// Media frames decoded and filtered but not written yet: what `pending` carries the media
    /// further (with what the filters still hold, or gave out for).
    private var unwrittenMedia = 0

    /// Decodes and filters the next chunk (at most what `--for` leaves), unless part of the last
    /// one is still to be written, and writes what the device takes now; tells the engine when
    /// the episode or the limit ends, and when the device is busy or gone.
    private func feedOutput(from buffer: UnsafeMutableRawBufferPointer, _ send: (PlayerEvent?) -> Void) throws {
        deviceReadyIn = 0
        if pending == nil {
            guard !decoder.isWaitingForData, !sleepsAfterWritten, let output = try openOutput(send) else { return }
            var room = DeviceRoom(frames: 0)
            guard try using(output, send, { output throws(OutputError) in room = try output.room() }) else {
                return decodeAgain(from: clock.mediaFrameWritten)
            }
            guard room.frames > 0 else {
                deviceReadyIn = room.readyIn
                return
            }
            guard let filtered = try decode(into: buffer, atMost: room.frames, send), !filtered.isEmpty else { return }
            pending = UnsafeRawBufferPointer(filtered)
        }
        guard let chunk = pending, let output = try openOutput(send) else { return }
        var result = WriteResult(frames: 0)
        let delivered = try using(output, send) { output throws(OutputError) in
            result = try output.write(chunk)
        }
        guard delivered else {
            // Whatever of this chunk did not reach the device is decoded again after a resume.
            return decodeAgain(from: clock.mediaFrameWritten)
        }
        // The media this write carried: the chunk's share of it, all of it with its last frame.
        let chunkFrames = chunk.count / outputFormat.bytesPerFrame
        let media = result.frames == chunkFrames ? unwrittenMedia : unwrittenMedia * result.frames / chunkFrames
        unwrittenMedia -= media
        // Where the fade began: in this write, or before this player's first (the previous
        // episode's fade goes on: this one is left at its start).
        let firstFrame = clock.deviceFramesWritten
        if let start = fade.fadeStart, start < firstFrame + result.frames, start >= firstFrame || firstFrame == 0 {
            fadeBegan = (start, clock.mediaFrameWritten + media * max(0, start - firstFrame) / result.frames)
        }
        clock.wrote(deviceFrames: result.frames, mediaFrames: media, deviceHolding: output.unplayedFrames)
        let rest = chunk.dropFirst(result.frames * outputFormat.bytesPerFrame)
        pending = rest.isEmpty ? nil : UnsafeRawBufferPointer(rebasing: rest)
        deviceReadyIn = result.readyIn
        if result.suspended {
            // The system slept and the device has been resumed: an interruption that has ended.
            try handle(.interruptionBegan(.systemSleep), send)
            try handle(.interruptionEnded(.systemSleep, shouldResume: true), send)
        }
    }

    /// The next chunk, decoded into `buffer` and filtered; nil when there is none (the end, the
    /// limit, a bad frame skipped).
    private func decode(
        into buffer: UnsafeMutableRawBufferPointer, atMost deviceFrames: Int, _ send: (PlayerEvent?) -> Void
    ) throws -> UnsafeMutableRawBufferPointer? {
        // A skipped chapter is never decoded: decoding stops at its start and goes on past it.
        var skipAllows: Int?
        waitsForSkippedChapterEnd = false
        switch engine.decoding(from: decoder.position, sampleRate: decoder.format.sampleRate, at: timeline) {
        case .decode(let atMost): skipAllows = atMost
        case .skip(let actions):
            for action in actions { try perform(action, send) }
            return nil
        case .wait:
            waitsForSkippedChapterEnd = true
            return nil
        case .end: return drainFilters(then: .endOfEpisode)
        }
        // Decoding stops at an end before the file's (a skipped outro); the filters drain as at its end.
        let toEnd = end.map { $0 - decoder.position } ?? .max
        guard toEnd > 0 else { return drainFilters(then: .endOfEpisode) }
        // What the filters hold is decoded too: it plays once they give it out (or drain).
        let frames = min(
            Self.chunkFrames(at: engine.speed), max(1, Int(Double(deviceFrames) * engine.speed)),
            limit.map { $0 - clock.mediaFramesPlayed - unwrittenMedia - filters.latency } ?? .max,
            skipAllows ?? .max, toEnd)
        guard frames > 0 else { return drainFilters(then: .limitReached) }
        let count: Int
        do {
            count = try decoder.read(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<(frames * decoder.format.bytesPerFrame)]))
            decodeFailures = 0
        } catch {
            // libmpg123 resyncs past a bad frame: warn once per bad stretch and go on. When it keeps
            // failing, the rest of the file is not audio: the episode ends there, unless nothing at
            // all could be played.
            decodeFailures += 1
            if decodeFailures == 1 { send(.skippedCorruptAudio(at: clock.mediaFrameWritten, reason: error.reason)) }
            if decodeFailures >= Self.maxConsecutiveDecodeFailures {
                guard decodedAny else { throw error }
                engine.finish(.endOfEpisode)
            }
            return nil
        }
        guard count > 0 else { return drainFilters(then: .endOfEpisode) }
        decodedAny = true
        let latency = filters.latency
        volume.percent = engine.volume
        speed.speed = engine.speed
        aimFade()
        let filtered = filters.process(UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))
        unwrittenMedia += count / decoder.format.bytesPerFrame + latency - filters.latency
        return filtered
    }

    static func chunkFrames(at speed: Double) -> Int { Int(Double(chunkFrames) * max(1, speed)) }

    /// At the end (or the limit), what the filters still hold; once they hold nothing, the
    /// episode is over for `reason`.
    private func drainFilters(then reason: StopReason) -> UnsafeMutableRawBufferPointer? {
        let latency = filters.latency
        aimFade()
        let tail = filters.drain()
        guard !tail.isEmpty else {
            engine.finish(reason)
            return nil
        }
        unwrittenMedia += latency
        return tail
    }

    /// The fade's frames go on from the last one written, to the sleep timer's deadline.
    private func aimFade() {
        fade.nextFrame = clock.deviceFramesWritten
        fade.aim(at: sleepDeadlineFrame)
    }

    /// The sleep timer's deadline in device frames (of listening since this player began); nil
    /// when there is none, or it waits for the end of the episode.
    private var sleepDeadlineFrame: Int? {
        guard case .listenedSeconds(let seconds)? = engine.sleepDeadline else { return nil }
        return Int((seconds * Double(outputFormat.sampleRate)).rounded())
    }

    /// When the device should have played the last frame before the sleep timer's deadline, once
    /// all of them are written: ALSA's pulse plugin goes on counting a few of them unplayed once
    /// nothing more comes.
    private var sleepPlayedOutBy: DispatchTime?

    /// The listening the sleep timer allows has been heard (or should have been, by the clock).
    private func sleepTimerHasRunOut() -> Bool {
        guard let deadline = sleepDeadlineFrame, sleepsAfterWritten else {
            sleepPlayedOutBy = nil
            return false
        }
        if listenedFrames >= deadline { return true }
        guard !engine.isPaused else {
            sleepPlayedOutBy = nil
            return false
        }
        let now = DispatchTime.now()
        let due = sleepPlayedOutBy ?? now + Double(deadline - listenedFrames) / Double(outputFormat.sampleRate) + 0.1
        sleepPlayedOutBy = due
        return now >= due
    }

    /// Everything up to the sleep timer's deadline is written: the rest would be silence.
    private var sleepsAfterWritten: Bool {
        sleepDeadlineFrame.map { clock.deviceFramesWritten >= $0 } ?? false
    }

    /// Forgets what was decoded and not written, and what the filters hold; decodes from `frame`.
    private func decodeAgain(from frame: Int) {
        pending = nil
        unwrittenMedia = 0
        filters.reset()
        decoder.seek(toFrame: frame)
    }

    /// The output, opened if there is none yet. A busy device is an interruption until it is
    /// free; a device that cannot be opened again after it was lost stays lost (the user may try
    /// again). Failing to open any device at all is an error.
    private func openOutput(_ send: (PlayerEvent?) -> Void) throws -> (any AudioOutput)? {
        if let output { return output }
        let opened: any AudioOutput
        do throws(OutputError) {
            opened = try device.output(for: outputFormat)
        } catch {
            switch error {
            case .busy:
                let delay =
                    busyRetry.map { min($0.delay * 2, Self.busyRetryDelays.longest) } ?? Self.busyRetryDelays.first
                busyRetry = (DispatchTime.now() + delay, delay)
                try handle(.interruptionBegan(.deviceBusy), send)
            case .noDevice(_, let reason) where device.wasOpened:
                try handle(.routeChanged(.oldDeviceUnavailable(reason: reason)), send)
            default:
                throw error
            }
            return nil
        }
        output = opened
        if busyRetry != nil {
            busyRetry = nil
            try handle(.interruptionEnded(.deviceBusy, shouldResume: true), send)
        }
        return opened
    }

    /// While a busy device keeps the player interrupted, tries it again when the delay is up.
    private func retryBusyDevice(_ send: (PlayerEvent?) -> Void) throws {
        guard let busyRetry, DispatchTime.now() >= busyRetry.at else { return }
        _ = try openOutput(send)
    }

    private var timeline: PlaybackEngine.Timeline {
        let held = deviceHolding
        return PlaybackEngine.Timeline(
            position: clock.position(deviceHolding: held), seekableFrames: decoder.seekableFrames,
            sampleRate: decoder.format.sampleRate, listenedSeconds: listenedSeconds(deviceHolding: held),
            isArriving: decoder.frameCount == nil)
    }

    /// Seconds of sound the listener has heard from this player: device frames, whatever the speed.
    public var listenedSeconds: Double { listenedSeconds(deviceHolding: deviceHolding) }

    private func listenedSeconds(deviceHolding held: Int) -> Double {
        Double(max(0, clock.deviceFramesPlayed - held)) / Double(outputFormat.sampleRate)
    }

    /// What the device has been given and not played: a call into it (a sound server's lock), so
    /// asked once for all that is worked out from it at one moment.
    private var deviceHolding: Int { output?.unplayedFrames ?? 0 }

    /// The sleep timer's fade where this player's sound has got to (1: none), for the next episode.
    public var fadeLevel: Double { fade.level(at: clock.deviceFramesWritten) }

    private var listenedFrames: Int { max(0, clock.deviceFramesPlayed - deviceHolding) }

    private func status(_ event: PlayerEvent?) -> PlayerStatus {
        let held = deviceHolding
        let position = clock.position(deviceHolding: held)
        return PlayerStatus(
            event: event, position: position, frameCount: decoder.frameCount, sampleRate: decoder.format.sampleRate,
            state: engine.state, volume: engine.volume, speed: engine.speed,
            sleep: engine.sleepTimer(listened: listenedSeconds(deviceHolding: held)),
            chapter: engine.chapters.index(at: Double(position) / Double(decoder.format.sampleRate)))
    }

    /// Runs `operation` on the output; false when the device turned out to be gone, which is then
    /// a route change (old device unavailable), whatever the operation was.
    private func using(
        _ output: (any AudioOutput)?, _ send: (PlayerEvent?) -> Void,
        _ operation: (any AudioOutput) throws(OutputError) -> Void
    ) throws -> Bool {
        guard let output else { return false }
        do {
            try operation(output)
            return true
        } catch {
            guard case .deviceLost(_, let reason) = error else { throw error }
            try handle(.routeChanged(.oldDeviceUnavailable(reason: reason)), send)
            return false
        }
    }

    private func perform(_ action: PlaybackEngine.Action, _ send: (PlayerEvent?) -> Void) throws {
        switch action {
        case .pauseOutput:
            var effect = PauseEffect.held
            _ = try using(output, send) { output throws(OutputError) in effect = try output.pause() }
            if case .dropped(let count) = effect, count > 0 {
                // The device forgot what it had not played yet: decode it again on resume.
                decodeAgain(from: clock.dropped(deviceFrames: count))
            }
        case .resumeOutput:
            _ = try using(output, send) { output throws(OutputError) in try output.resume() }
        case .releaseOutput:
            // What the device held when it vanished was never heard: play it again later.
            output = nil
            device.release()
            decodeAgain(from: clock.dropped(deviceFrames: clock.heldAfterLastWrite))
        case .seek(let frame):
            // What the device holds (a buffer, 200 ms) plays first; the new place follows it.
            // Dropping it cost far more: ALSA's pulse plugin makes a new stream after a drop,
            // which a PulseAudio sink rendering ahead for no stream starts up to 2 s later.
            decodeAgain(from: frame)
            clock.restart(at: decoder.position)
        case .report(let event):
            send(event)
        }
    }

    /// Played to the end (or to the limit): let the device play what it holds. Stopped by the
    /// user: stop the sound now, and remember the frame that was being heard.
    private func finish(_ reason: StopReason) {
        switch reason {
        case .endOfEpisode, .limitReached:
            output?.drain()
        case .sleepTimer:
            // What the device still holds is silence. The listener is left where the fade began.
            output?.discard()
            pending = nil
            clock.restart(at: fadeBegan.flatMap { $0.device == fade.fadeStart ? $0.media : nil } ?? position)
        default:
            let heard = position
            output?.discard()
            pending = nil
            clock.restart(at: heard)
        }
    }
}

extension Error {
    /// The words of a decoder error without the file name (the player names the episode).
    fileprivate var reason: String {
        switch self as? DecoderError {
        case .decoding(_, let reason)?, .seeking(_, let reason)?, .cannotOpen(_, let reason)?: return reason
        default: return "\(self)"
        }
    }
}
