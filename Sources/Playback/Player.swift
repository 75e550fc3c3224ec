import Dispatch

/// What the player shows after each event and a few times a second while playing.
public struct PlayerStatus: Equatable, Sendable {
    /// What just happened; nil for a periodic update.
    public var event: PlayerEvent?
    /// The frame being heard now.
    public var position: Int
    public var frameCount: Int?
    public var sampleRate: Int
    public var isPaused: Bool
    public var volume: Int

    public var seconds: Double { Double(position) / Double(sampleRate) }
    public var duration: Double? { frameCount.map { Double($0) / Double(sampleRate) } }
}

/// Plays one episode: decodes, applies the volume, writes to the output, and between two writes
/// carries out the commands that arrived. One thread, one loop, read top to bottom (as mpv's
/// `run_playloop`): commands → stop? → paused? → decode → write → report.
public final class Player {
    private let decoder: Decoder
    private let output: any AudioOutput
    private let commands: CommandQueue
    public private(set) var engine: PlaybackEngine
    /// Stop after this many frames have been played (`--for`).
    private let limit: Int?
    /// The decoder frame just after the last one written to the output.
    private var written: Int
    /// Frames written to the output so far, wherever seeks took the decoder.
    public private(set) var framesPlayed = 0

    /// Frames per write: small enough that a key takes effect within ~50 ms.
    static let chunkFrames = 2048
    /// Seconds between periodic reports while playing (redraws, position saves).
    static let reportInterval = 0.25
    /// Consecutive undecodable reads after which the file is given up.
    static let maxConsecutiveDecodeFailures = 8

    public var format: AudioFormat { decoder.format }

    /// The frame the listener hears now.
    public var position: Int { max(0, written - output.unplayedFrames) }

    /// - Parameters:
    ///   - engine: carries the volume (and pause) over from the previous episode.
    ///   - limit: frames to play before stopping with `.limitReached`; nil plays to the end.
    public init(decoder: Decoder, output: any AudioOutput, commands: CommandQueue, engine: PlaybackEngine, limit: Int?)
    {
        self.decoder = decoder
        self.output = output
        self.commands = commands
        self.engine = engine
        self.limit = limit
        self.written = decoder.position
    }

    /// Plays until the episode ends or a command stops it; returns why. `report` is called on
    /// this thread for every event and periodically.
    /// - Throws: `DecoderError` when the file cannot be decoded any further, `OutputError` when
    ///   the device fails. `position` stays valid for saving.
    public func play(report: (PlayerStatus) -> Void) throws -> StopReason {
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.chunkFrames * decoder.format.bytesPerFrame, alignment: 16)
        defer { buffer.deallocate() }
        var lastReport = DispatchTime.now()
        func send(_ event: PlayerEvent?) {
            lastReport = DispatchTime.now()
            report(status(event))
        }
        send(.started(at: position))
        while true {
            for command in commands.take(waitingUpTo: engine.isPaused ? 1 : 0) {
                for action in engine.handle(command, at: timeline) { try perform(action, send) }
            }
            if let reason = engine.stopReason {
                finish(reason)
                send(.stopped(reason, at: position))
                return reason
            }
            if engine.isPaused {
                send(nil)
                continue
            }
            try feedOutput(from: buffer, send)
            if DispatchTime.now().uptimeNanoseconds - lastReport.uptimeNanoseconds
                >= UInt64(Self.reportInterval * 1e9)
            {
                send(nil)
            }
        }
    }

    /// Consecutive reads that failed to decode, and whether any audio came out at all.
    private var decodeFailures = 0
    private var decodedAny = false

    /// Decodes the next chunk (at most what `--for` leaves) and writes it; tells the engine when
    /// the episode or the limit ends.
    private func feedOutput(from buffer: UnsafeMutableRawBufferPointer, _ send: (PlayerEvent?) -> Void) throws {
        let bytesPerFrame = decoder.format.bytesPerFrame
        let frames = min(Self.chunkFrames, limit.map { $0 - framesPlayed } ?? .max)
        guard frames > 0 else { return engine.finish(.limitReached) }
        let count: Int
        do {
            count = try decoder.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<(frames * bytesPerFrame)]))
            decodeFailures = 0
        } catch {
            // libmpg123 resyncs past a bad frame: warn once per bad stretch and go on. When it keeps
            // failing, the rest of the file is not audio: the episode ends there, unless nothing at
            // all could be played.
            decodeFailures += 1
            if decodeFailures == 1 { send(.skippedCorruptAudio(at: written, reason: error.reason)) }
            if decodeFailures >= Self.maxConsecutiveDecodeFailures {
                guard decodedAny else { throw error }
                engine.finish(.endOfEpisode)
            }
            return
        }
        guard count > 0 else { return engine.finish(.endOfEpisode) }
        decodedAny = true
        let pcm = UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])
        SoftwareVolume.apply(engine.volume, to: pcm)
        try output.write(UnsafeRawBufferPointer(pcm))
        written += count / bytesPerFrame
        framesPlayed += count / bytesPerFrame
    }

    private var timeline: PlaybackEngine.Timeline {
        PlaybackEngine.Timeline(
            position: position, seekableFrames: decoder.seekableFrames, sampleRate: decoder.format.sampleRate)
    }

    private func status(_ event: PlayerEvent?) -> PlayerStatus {
        PlayerStatus(
            event: event, position: position, frameCount: decoder.frameCount, sampleRate: decoder.format.sampleRate,
            isPaused: engine.isPaused, volume: engine.volume)
    }

    private func perform(_ action: PlaybackEngine.Action, _ send: (PlayerEvent?) -> Void) throws {
        switch action {
        case .pauseOutput:
            if case .dropped(let count) = try output.pause(), count > 0 {
                // The device forgot what it had not played yet: decode it again on resume.
                written -= count
                try decoder.seek(toFrame: written)
            }
        case .resumeOutput:
            try output.resume()
        case .seek(let frame):
            output.discard()
            try decoder.seek(toFrame: frame)
            written = decoder.position
        case .report(let event):
            send(event)
        }
    }

    /// Played to the end (or to the limit): let the device play what it holds. Stopped by the
    /// user: stop the sound now, and remember the frame that was being heard.
    private func finish(_ reason: StopReason) {
        switch reason {
        case .endOfEpisode, .limitReached:
            output.drain()
        default:
            let heard = position
            output.discard()
            written = heard
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
