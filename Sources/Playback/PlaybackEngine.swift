/// What happened, for whoever shows the player's state (the now-playing line, a log, later
/// MPRIS): positions are PCM frames of the episode.
public enum PlayerEvent: Equatable, Sendable {
    case started(at: Int)
    case paused(at: Int)
    case resumed(at: Int)
    case seeked(from: Int, to: Int)
    case volumeChanged(Int)
    /// A frame could not be decoded and was skipped.
    case skippedCorruptAudio(at: Int, reason: String)
    case stopped(StopReason, at: Int)
    /// Nothing changed; draw again.
    case redraw
}

/// The player's state and the rules that change it: commands in, actions out, no I/O, so the
/// rules can be tested as a table. `Player` owns one and carries out its actions.
public struct PlaybackEngine: Equatable, Sendable {
    /// Where an episode is: the frame being heard, how far a seek may go (the end; for a stream,
    /// what has arrived; nil when there is no telling), its sample rate.
    public struct Timeline: Equatable, Sendable {
        public var position: Int
        public var seekableFrames: Int?
        public var sampleRate: Int

        public init(position: Int, seekableFrames: Int?, sampleRate: Int) {
            self.position = position
            self.seekableFrames = seekableFrames
            self.sampleRate = sampleRate
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
        case seek(toFrame: Int)
        case report(PlayerEvent)
    }

    public private(set) var isPaused: Bool
    public private(set) var volume: Int
    /// Set once the episode should stop playing; the player stops before its next write.
    public private(set) var stopReason: StopReason?

    /// Within this many seconds of the start, "previous" goes to the previous episode; later, it
    /// goes back to the start of this one, as on a phone.
    public static let restartThreshold = 3.0

    public init(volume: Int = 100, paused: Bool = false) {
        self.volume = SoftwareVolume.range.clamped(volume)
        self.isPaused = paused
    }

    public mutating func handle(_ command: PlayerCommand, at timeline: Timeline) -> [Action] {
        let position = timeline.position
        switch command {
        case .togglePause:
            return handle(isPaused ? .resume : .pause, at: timeline)
        case .pause:
            guard !isPaused else { return [] }
            isPaused = true
            return [.pauseOutput, .report(.paused(at: position))]
        case .resume:
            guard isPaused else { return [] }
            isPaused = false
            return [.resumeOutput, .report(.resumed(at: position))]
        case .seek(by: let seconds):
            return seek(from: position, to: timeline.frame(movedBy: seconds))
        case .setPosition(let seconds):
            return seek(from: position, to: timeline.frame(at: seconds))
        case .changeVolume(let change):
            let changed = SoftwareVolume.range.clamped(volume + change)
            guard changed != volume else { return [] }
            volume = changed
            return [.report(.volumeChanged(changed))]
        case .previous where Double(position) / Double(timeline.sampleRate) > Self.restartThreshold:
            return seek(from: position, to: 0)
        case .next: return stop(.next)
        case .previous: return stop(.previous)
        case .markPlayed: return stop(.markedPlayed)
        case .quit: return stop(.quit)
        case .signal(let number): return stop(.signal(number))
        case .redraw: return [.report(.redraw)]
        }
    }

    /// The episode ended, or `--for` was reached.
    public mutating func finish(_ reason: StopReason) { stopReason = stopReason ?? reason }

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
