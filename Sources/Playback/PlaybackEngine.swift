/// What happened, for whoever shows the player's state (the now-playing line, a log, later
/// MPRIS): positions are PCM frames of the episode.
public enum PlayerEvent: Equatable, Sendable {
    case started(at: Int)
    /// Playing, paused, interrupted or without a device, and why.
    case stateChanged(PlayerState, at: Int)
    /// The user suspended podcli (Ctrl-Z): the output is paused; the process may stop now.
    case suspending(at: Int)
    case seeked(from: Int, to: Int)
    case volumeChanged(Int)
    case speedChanged(Double)
    /// The moment being heard was marked (`PlayerCommand.bookmark`).
    case bookmarked(note: String?, ticket: Int?, at: Int)
    /// The sleep timer was set, changed or turned off.
    case sleepTimerChanged
    /// A frame could not be decoded and was skipped.
    case skippedCorruptAudio(at: Int, reason: String)
    case stopped(StopReason, at: Int)
    /// Nothing changed; draw again.
    case redraw
    /// The listener chose other chapters to skip (`podcli chapters --skip`): the session gives
    /// the engine the chapters again.
    case chaptersChanged
}

/// What the listener is told: playing, or why not.
public enum PlayerState: Equatable, Sendable, CustomStringConvertible {
    case playing
    /// The user paused.
    case paused
    /// Something else has the sound for now; playing resumes when it ends, if it was playing.
    case interrupted(Interruption)
    /// The device went away; playing waits for the user, and then uses the default device.
    case deviceLost

    public var description: String {
        switch self {
        case .playing: return "playing"
        case .paused: return "paused"
        case .interrupted(let interruption): return "interrupted (\(interruption))"
        case .deviceLost: return "paused (device lost)"
        }
    }
}

/// The player's state and the rules that change it: commands in, actions out, no I/O, so the
/// rules can be tested as a table. `Player` owns one and carries out its actions.
///
/// The policy for what happens around the player, after the iOS audio session (and without its
/// bug of resuming on every route change):
/// - an interruption pauses; when the last one ends with "should resume", playing resumes, but
///   only if it was playing when the first began and the user did not pause since;
/// - the old device becoming unavailable pauses, and only the user resumes, on the device that
///   is the default by then: sound must never jump to the laptop's speakers by itself;
/// - a new device becoming available changes nothing.
public struct PlaybackEngine: Equatable, Sendable {
    /// Where an episode is: the frame being heard, how far a seek may go (the end; for a stream,
    /// what has arrived; nil when there is no telling), its sample rate, and the seconds of
    /// listening (wall time: sound the device played, whatever the speed) since it began.
    public struct Timeline: Equatable, Sendable {
        public var position: Int
        public var seekableFrames: Int?
        public var sampleRate: Int
        public var listenedSeconds: Double
        /// A file still arriving: `seekableFrames` is what has arrived so far, not the end.
        public var isArriving: Bool

        public init(
            position: Int, seekableFrames: Int?, sampleRate: Int, listenedSeconds: Double = 0, isArriving: Bool = false
        ) {
            self.position = position
            self.seekableFrames = seekableFrames
            self.sampleRate = sampleRate
            self.listenedSeconds = listenedSeconds
            self.isArriving = isArriving
        }

        /// `seconds` from here, kept within the episode.
        func frame(movedBy seconds: Double) -> Int { frame(at: Double(position) / Double(sampleRate) + seconds) }

        func frame(at seconds: Double) -> Int {
            let frame = max(0, Int((seconds * Double(sampleRate)).rounded()))
            return seekableFrames.map { min(frame, $0) } ?? frame
        }
    }

    public enum Action: Equatable, Sendable {
        case pauseOutput
        case resumeOutput
        /// The device is gone: let go of it (what it held was not heard); the next write opens
        /// the device again.
        case releaseOutput
        case seek(toFrame: Int)
        case report(PlayerEvent)
    }

    /// The user's pause.
    private var userPaused: Bool
    /// Interruptions under way, oldest first.
    private var interruptions: [Interruption] = []
    /// Whether to play again when the last interruption ends: it was playing when the first
    /// began, and the user has not paused since (or has asked to play since).
    private var resumesAfterInterruptions = false
    private var deviceLost = false
    public private(set) var volume: Int
    /// The speed, pitch kept (1: as published).
    public private(set) var speed: Double
    /// When the sleep timer stops playing: at this many seconds of listening in the episode's
    /// timeline, or at its end; nil: no sleep timer.
    public private(set) var sleepDeadline: SleepDeadline?
    /// The sleep timer as last chosen (what the sleep key cycles on from).
    private var sleepChoice: SleepTimer?
    /// Set once the episode should stop playing; the player stops before its next write.
    public private(set) var stopReason: StopReason?
    /// The episode's chapters: next and previous chapter go between their stops, and skipped
    /// ones are jumped over as decoding reaches them. Set by the session for each episode.
    public var chapters = ChapterMarks.none

    /// Within this many seconds of the start, "previous" goes to the previous episode; later, it
    /// goes back to the start of this one, as on a phone.
    public static let restartThreshold = 3.0

    public enum SleepDeadline: Equatable, Sendable {
        case listenedSeconds(Double)
        case endOfEpisode
    }

    /// - Parameter sleepTimer: set as the episode starts (its listening counts from 0).
    public init(volume: Int = 100, paused: Bool = false, speed: Double = 1, sleepTimer: SleepTimer? = nil) {
        self.volume = SoftwareVolume.range.clamped(volume)
        self.userPaused = paused
        self.speed = PlaybackSpeed.clamped(speed) ?? 1
        self.sleepChoice = sleepTimer
        self.sleepDeadline = sleepTimer.map { Self.deadline($0, listened: 0) }
    }

    /// Sets the speed the episode starts at (nothing plays yet: nothing to report).
    public mutating func start(atSpeed rate: Double) { speed = PlaybackSpeed.clamped(rate) ?? speed }

    /// Seconds of listening left before the sleep timer stops playing; nil when it waits for the
    /// end of the episode, or there is none.
    public func sleepSecondsLeft(listened: Double) -> Double? {
        guard case .listenedSeconds(let deadline) = sleepDeadline else { return nil }
        return max(0, deadline - listened)
    }

    /// The sleep timer as it stands: the listening left, or the end of the episode; nil: none.
    public func sleepTimer(listened: Double) -> SleepTimer? {
        switch sleepDeadline {
        case .listenedSeconds?: return sleepSecondsLeft(listened: listened).map { .after(seconds: $0) }
        case .endOfEpisode?: return .endOfEpisode
        case nil: return nil
        }
    }

    /// The engine for the next episode of the session: the volume, the speed and what is left
    /// of the sleep timer carry over.
    public func forNextEpisode(listened: Double) -> PlaybackEngine {
        var next = PlaybackEngine(volume: volume, speed: speed)
        if let left = sleepSecondsLeft(listened: listened) {
            next.sleepChoice = sleepChoice
            next.sleepDeadline = .listenedSeconds(left)
        }
        return next
    }

    private static func deadline(_ timer: SleepTimer, listened: Double) -> SleepDeadline {
        switch timer {
        case .after(let seconds): return .listenedSeconds(listened + seconds)
        case .endOfEpisode: return .endOfEpisode
        }
    }

    public var state: PlayerState {
        if deviceLost { return .deviceLost }
        if let interruption = interruptions.last { return .interrupted(interruption) }
        return userPaused ? .paused : .playing
    }

    public var isPaused: Bool { state != .playing }

    /// Whether the listener wants sound: what space toggles.
    private var wantsToPlay: Bool {
        !userPaused && !deviceLost && (interruptions.isEmpty || resumesAfterInterruptions)
    }

    public mutating func handle(_ command: PlayerCommand, at timeline: Timeline) -> [Action] {
        let position = timeline.position
        switch command {
        case .togglePause:
            return handle(wantsToPlay ? .pause : .resume, at: timeline)
        case .pause:
            resumesAfterInterruptions = false
            return change(at: position, wasPaused: isPaused) { $0.userPaused = true }
        case .resume:
            // After an interruption has begun, resuming is a wish for when it ends.
            resumesAfterInterruptions = !interruptions.isEmpty
            return change(at: position, wasPaused: isPaused) {
                $0.userPaused = false
                $0.deviceLost = false
            }
        case .interruptionBegan(let interruption):
            guard !interruptions.contains(interruption) else { return [] }
            if interruptions.isEmpty { resumesAfterInterruptions = !isPaused }
            let actions = change(at: position, wasPaused: isPaused) { $0.interruptions.append(interruption) }
            return interruption == .suspend ? actions + [.report(.suspending(at: position))] : actions
        case .interruptionEnded(let interruption, let shouldResume):
            guard let index = interruptions.firstIndex(of: interruption) else { return [] }
            return change(at: position, wasPaused: isPaused) { engine in
                engine.interruptions.remove(at: index)
                guard engine.interruptions.isEmpty else { return }
                // The last one: play again only as the policy says; otherwise it is now a pause.
                if !(shouldResume && engine.resumesAfterInterruptions) { engine.userPaused = true }
            }
        case .routeChanged(.oldDeviceUnavailable):
            guard !deviceLost else { return [] }
            resumesAfterInterruptions = false
            let actions = change(at: position, wasPaused: isPaused) { $0.deviceLost = true }
            return [.releaseOutput] + actions.filter { $0 != .pauseOutput }
        case .routeChanged(.newDeviceAvailable), .routeChanged(.override):
            return []
        case .seek(by: let seconds):
            return seek(from: position, to: timeline.frame(movedBy: seconds))
        case .setPosition(let seconds):
            return seek(from: position, to: timeline.frame(at: seconds))
        case .setVolume(let percent):
            return handle(.changeVolume(by: percent - volume), at: timeline)
        case .changeVolume(let change):
            let changed = SoftwareVolume.range.clamped(volume + change)
            guard changed != volume else { return [] }
            volume = changed
            return [.report(.volumeChanged(changed))]
        case .setSpeed(let rate):
            guard let rate = PlaybackSpeed.clamped(rate), rate != speed else { return [] }
            speed = rate
            return [.report(.speedChanged(rate))]
        case .changeSpeed(let change):
            return handle(.setSpeed(speed + change), at: timeline)
        case .setSleepTimer(let timer):
            sleepChoice = timer
            sleepDeadline = timer.map { Self.deadline($0, listened: timeline.listenedSeconds) }
            return [.report(.sleepTimerChanged)]
        case .extendSleepTimer(let seconds):
            let left = sleepSecondsLeft(listened: timeline.listenedSeconds) ?? 0
            return handle(.setSleepTimer(.after(seconds: max(0, left + seconds))), at: timeline)
        case .cycleSleepTimer:
            let index = SleepTimer.cycle.firstIndex(of: sleepChoice) ?? 0
            return handle(.setSleepTimer(SleepTimer.cycle[(index + 1) % SleepTimer.cycle.count]), at: timeline)
        case .previous where Double(position) / Double(timeline.sampleRate) > Self.restartThreshold:
            return seek(from: position, to: 0)
        case .nextChapter:
            let seconds = Double(position) / Double(timeline.sampleRate)
            guard let start = chapters.nextStop(after: seconds) else { return [] }
            return jump(to: start, at: timeline)
        case .previousChapter:
            let seconds = Double(position) / Double(timeline.sampleRate)
            return jump(to: chapters.previousStop(from: seconds, restartAfter: Self.restartThreshold), at: timeline)
        case .next: return stop(.next)
        case .previous: return stop(.previous)
        case .markPlayed: return stop(.markedPlayed)
        case .bookmark(let note, let ticket): return [.report(.bookmarked(note: note, ticket: ticket, at: position))]
        case .quit: return stop(.quit)
        case .signal(let number): return stop(.signal(number))
        case .redraw: return [.report(.redraw)]
        case .chaptersChanged: return [.report(.chaptersChanged)]
        case .setChapters(let marks):
            chapters = marks
            return []
        }
    }

    /// Applies `update`, and says what changed: the output paused or resumed, and the new state.
    private mutating func change(at position: Int, wasPaused: Bool, _ update: (inout Self) -> Void) -> [Action] {
        let before = state
        update(&self)
        guard state != before else { return [] }
        var actions: [Action] = []
        if isPaused && !wasPaused { actions.append(.pauseOutput) }
        if !isPaused && wasPaused && !(before == .deviceLost) { actions.append(.resumeOutput) }
        return actions + [.report(.stateChanged(state, at: position))]
    }

    /// The episode ended, or `--for` was reached.
    public mutating func finish(_ reason: StopReason) { stopReason = stopReason ?? reason }

    /// To a chapter's start, or past it when it is skipped: at the end, the episode has ended.
    private mutating func jump(to seconds: Double, at timeline: Timeline) -> [Action] {
        guard let landing = chapters.landing(seconds) else {
            finish(.endOfEpisode)
            return []
        }
        return seek(from: timeline.position, to: timeline.frame(at: landing))
    }

    /// What decoding from a frame comes to, as skipped chapters have it.
    public enum DecodingStep: Equatable, Sendable {
        /// Decode on, at most this many frames (to the start of the next skipped chapter; nil:
        /// no limit).
        case decode(atMost: Int?)
        /// In a skipped chapter: these actions seek past it. What was written before is still
        /// heard, then the chapter after.
        case skip([Action])
        /// In a skipped chapter whose end has not arrived yet: wait for it (seeking as far as
        /// has arrived would play the chapter).
        case wait
        /// Skipped chapters reach the end of the episode: it has ended.
        case end
    }

    /// Decoding is about to go on from `frame`, at `sampleRate`. The timeline is asked for only
    /// in a skipped chapter: what the device holds is a call into it, and this comes before every
    /// chunk decoded.
    public func decoding(from frame: Int, sampleRate: Int, at currentTimeline: @autoclosure () -> Timeline)
        -> DecodingStep
    {
        let rate = Double(sampleRate)
        let seconds = Double(frame) / rate
        guard let landing = chapters.landing(seconds) else { return .end }
        if landing != seconds {
            let timeline = currentTimeline()
            let target = Int((landing * rate).rounded())
            if timeline.isArriving, let arrived = timeline.seekableFrames, target > arrived { return .wait }
            return .skip(seek(from: timeline.position, to: timeline.frame(at: landing)))
        }
        return .decode(atMost: chapters.nextSkipped(after: seconds).map { max(1, Int(($0 * rate).rounded()) - frame) })
    }

    private func seek(from position: Int, to target: Int) -> [Action] {
        [.seek(toFrame: target), .report(.seeked(from: position, to: target))]
    }

    /// A later command may strengthen a stop (a signal beats quit, quit beats next), never
    /// replace it with one as weak.
    private mutating func stop(_ reason: StopReason) -> [Action] {
        func strength(_ reason: StopReason) -> Int {
            switch reason {
            case .signal: return 2
            case .quit: return 1
            default: return 0
            }
        }
        if stopReason.map({ strength(reason) > strength($0) }) ?? true { stopReason = reason }
        return []
    }
}

extension ClosedRange where Bound == Int {
    func clamped(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
