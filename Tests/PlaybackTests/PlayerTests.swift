import Dispatch
import Foundation
import TestSupport
import Testing
import Threads

@testable import Playback

/// The player on a real ALSA device: the `file` plugin in front of `null` records every byte that
/// would reach the speaker, which is compared with `mpg123 -s` decoding the same file.
@Suite(.requires(MPEGDecoderTests.mpg123Present, "mpg123 is not installed"))
struct PlayerTests {
    /// A capture device in a temporary directory, and what it recorded.
    struct Capture {
        let directory: TemporaryDirectory
        var path: String { directory.appending("capture.raw").path }
        var device: String { "file:'\(path)',raw" }

        init() throws { directory = try TemporaryDirectory() }

        func recorded() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
    }

    /// An ALSA output that also lets a test act after a given number of writes, the way a user
    /// presses a key while the sound plays.
    final class WatchedOutput: AudioOutput {
        let device: ALSAOutput
        var writes = 0
        var framesWritten = 0
        var pauses: [PauseEffect] = []
        var onWrite: (WatchedOutput) -> Void = { _ in }

        init(_ device: ALSAOutput) { self.device = device }

        var format: AudioFormat { device.format }
        var deviceName: String { device.deviceName }
        var unplayedFrames: Int { device.unplayedFrames }

        func write(_ pcm: UnsafeRawBufferPointer) throws(OutputError) -> WriteResult {
            let result = try device.write(pcm)
            writes += 1
            framesWritten += result.frames
            onWrite(self)
            return result
        }

        func room() throws(OutputError) -> DeviceRoom { try device.room() }

        func pause() throws(OutputError) -> PauseEffect {
            let effect = try device.pause()
            pauses.append(effect)
            return effect
        }

        func resume() throws(OutputError) { try device.resume() }
        func discard() { device.discard() }
        func drain() { device.drain() }
    }

    static let stereo = fixture("tone-44k-stereo.mp3").path

    /// Plays `path` from `frame` on a capture device and returns why it stopped and what was heard.
    static func play(
        _ path: String, from frame: Int = 0, volume: Int = 100, limit: Int? = nil,
        commands: CommandQueue = CommandQueue(), watch: @escaping (WatchedOutput) -> Void = { _ in }
    ) throws -> (reason: StopReason, heard: Data, output: WatchedOutput, position: Int, events: [PlayerEvent]) {
        let capture = try Capture()
        let decoder = try AudioDecoders.open(path: path)
        decoder.seek(toFrame: frame)
        let output = WatchedOutput(try ALSAOutput(device: capture.device, format: decoder.format))
        output.onWrite = watch
        let player = Player(
            decoder: decoder, device: AudioDevice(name: capture.device) { _, _ in output }, commands: commands,
            engine: PlaybackEngine(volume: volume), limit: limit)
        var events: [PlayerEvent] = []
        let reason = try player.play { status in status.event.map { events.append($0) } }
        return (reason, try capture.recorded(), output, player.position, events)
    }

    @Test func playsAWholeFileExactlyAsMpg123DecodesIt() throws {
        let played = try Self.play(Self.stereo)
        #expect(played.reason == .endOfEpisode)
        #expect(played.heard == (try MPEGDecoderTests.reference(Self.stereo)))
    }

    @Test(arguments: [1, 44_100, 100_001])
    func startingFromASavedPositionPlaysExactlyTheRest(frame: Int) throws {
        let played = try Self.play(Self.stereo, from: frame)
        #expect(played.heard == (try MPEGDecoderTests.reference(Self.stereo)).dropFirst(frame * 4))
    }

    @Test func playingForADurationStopsAfterExactlyThatMuchAudio() throws {
        let played = try Self.play(Self.stereo, from: 1_000, limit: 44_100)
        #expect(played.reason == .limitReached)
        #expect(played.position == 45_100)
        #expect(played.heard == (try MPEGDecoderTests.reference(Self.stereo)).dropFirst(4_000).prefix(44_100 * 4))
    }

    /// ALSA's null device never starts sounding (it takes everything at once), so pausing it is
    /// only writing nothing more, as for any device still filling its buffer: across the pause
    /// there is no gap and no repeat. (A device that is sounding is held with `snd_pcm_pause`:
    /// PlayTerminalTests, on a paced PulseAudio sink.)
    @Test func pauseAndResumeLoseNothingAndRepeatNothing() throws {
        let commands = CommandQueue()
        let played = try Self.play(Self.stereo, commands: commands) { output in
            guard output.writes == 10 else { return }
            commands.post(.pause)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { commands.post(.resume) }
        }
        #expect(played.output.pauses == [.held])
        #expect(played.reason == .endOfEpisode)
        #expect(played.heard == (try MPEGDecoderTests.reference(Self.stereo)))
    }

    /// A device that fails like ALSA does when it goes away: -ENODEV on a write, after holding
    /// `unplayed` frames it had not played yet.
    final class VanishingOutput: AudioOutput {
        /// The real device until it "vanishes" (closed then, so its capture is complete).
        var device: ALSAOutput?
        let format: AudioFormat
        let deviceName: String
        let failAfterWrites: Int
        let unplayed: Int
        var writes = 0
        var framesAccepted = 0

        init(_ device: ALSAOutput, failAfterWrites: Int, unplayed: Int) {
            self.device = device
            self.format = device.format
            self.deviceName = device.deviceName
            self.failAfterWrites = failAfterWrites
            self.unplayed = unplayed
        }

        var unplayedFrames: Int { writes < failAfterWrites ? 0 : unplayed }

        func write(_ pcm: UnsafeRawBufferPointer) throws(OutputError) -> WriteResult {
            guard writes < failAfterWrites, let device else {
                device = nil
                throw .deviceLost(name: deviceName, reason: "No such device")
            }
            writes += 1
            let result = try device.write(pcm)
            framesAccepted += result.frames
            return result
        }

        func room() throws(OutputError) -> DeviceRoom {
            guard writes < failAfterWrites, let device else {
                device = nil
                throw .deviceLost(name: deviceName, reason: "No such device")
            }
            return try device.room()
        }

        func pause() throws(OutputError) -> PauseEffect { try device?.pause() ?? .held }
        func resume() throws(OutputError) { try device?.resume() }
        func discard() { device?.discard() }
        func drain() { device?.drain() }
    }

    /// The device vanishes after 10 writes: the player pauses (device lost) at the frame being
    /// heard, waits for the user, and then plays on the device that is the default by then, from
    /// that frame: what the lost device had not played is heard, nothing else twice.
    @Test func aLostDeviceWaitsForTheUserAndThenPlaysOnTheNewDefault() throws {
        let first = try Capture()
        let second = try Capture()
        let decoder = try MPEGDecoder(path: Self.stereo)
        let vanishing = VanishingOutput(
            try ALSAOutput(device: first.device, format: decoder.format), failAfterWrites: 10, unplayed: 3_000)
        var opens = 0
        let device = AudioDevice(name: "default") { _, format throws(OutputError) in
            opens += 1
            return opens == 1 ? vanishing : try ALSAOutput(device: second.device, format: format)
        }
        let commands = CommandQueue()
        let player = Player(decoder: decoder, device: device, commands: commands, engine: PlaybackEngine(), limit: nil)
        var states: [PlayerState] = []
        var lostAt: Int?
        let reason = try player.play { status in
            guard case .stateChanged(let state, let position) = status.event else { return }
            states.append(state)
            if state == .deviceLost {
                lostAt = position
                // Nothing resumes by itself: the user does, a moment later.
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { commands.post(.resume) }
            }
        }
        #expect(reason == .endOfEpisode)
        #expect(states == [.deviceLost, .playing])
        #expect(opens == 2)
        let heard = vanishing.framesAccepted - 3_000
        #expect(lostAt == heard)
        let reference = try MPEGDecoderTests.reference(Self.stereo)
        #expect(try first.recorded() == reference.prefix(vanishing.framesAccepted * 4))
        #expect(try second.recorded() == reference.dropFirst(heard * 4))
    }

    /// ALSA reports a system suspend (-ESTRPIPE) on the write after it, once it has resumed the
    /// device: an interruption that has ended, so playing goes on, nothing lost.
    @Test func aSystemSuspendSeenByALSAIsAnInterruptionThatHasEnded() throws {
        final class SuspendedOnce: AudioOutput {
            let device: ALSAOutput
            var writes = 0
            init(_ device: ALSAOutput) { self.device = device }
            var format: AudioFormat { device.format }
            var deviceName: String { device.deviceName }
            var unplayedFrames: Int { device.unplayedFrames }
            func write(_ pcm: UnsafeRawBufferPointer) throws(OutputError) -> WriteResult {
                writes += 1
                var result = try device.write(pcm)
                result.suspended = result.suspended || writes == 5
                return result
            }
            func room() throws(OutputError) -> DeviceRoom { try device.room() }
            func pause() throws(OutputError) -> PauseEffect { try device.pause() }
            func resume() throws(OutputError) { try device.resume() }
            func discard() { device.discard() }
            func drain() { device.drain() }
        }
        let capture = try Capture()
        let decoder = try MPEGDecoder(path: Self.stereo)
        let output = SuspendedOnce(try ALSAOutput(device: capture.device, format: decoder.format))
        let player = Player(
            decoder: decoder, device: AudioDevice(name: capture.device) { _, _ in output }, commands: CommandQueue(),
            engine: PlaybackEngine(), limit: nil)
        var states: [PlayerState] = []
        let reason = try player.play { status in
            if case .stateChanged(let state, _) = status.event { states.append(state) }
        }
        #expect(reason == .endOfEpisode)
        #expect(states == [.interrupted(.systemSleep), .playing])
        #expect(try capture.recorded() == (try MPEGDecoderTests.reference(Self.stereo)))
    }

    @Test func aBusyDeviceIsAnInterruptionUntilItIsFree() throws {
        let capture = try Capture()
        let decoder = try MPEGDecoder(path: Self.stereo)
        var attempts = 0
        let device = AudioDevice(name: "default") { name, format throws(OutputError) in
            attempts += 1
            guard attempts > 3 else { throw .busy(name: name) }
            return try ALSAOutput(device: capture.device, format: format)
        }
        let player = Player(
            decoder: decoder, device: device, commands: CommandQueue(), engine: PlaybackEngine(), limit: nil)
        var states: [PlayerState] = []
        let started = DispatchTime.now()
        let reason = try player.play { status in
            if case .stateChanged(let state, _) = status.event { states.append(state) }
        }
        #expect(reason == .endOfEpisode)
        #expect(states == [.interrupted(.deviceBusy), .playing])
        #expect(attempts == 4)
        // Tried again after 0.25, 0.5 and 1 s.
        #expect(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds >= 1_700_000_000)
        #expect(try capture.recorded() == (try MPEGDecoderTests.reference(Self.stereo)))
    }

    /// A stream that has run out of downloaded bytes does not block the player: a pause pressed
    /// while it waits takes effect at once, and it plays on when the bytes come.
    @Test func keysWorkWhileAStreamWaitsForItsDownload() throws {
        let source = try Data(contentsOf: URL(fileURLWithPath: Self.stereo))
        let directory = try TemporaryDirectory()
        let path = directory.appending("episode.mp3.part").path
        try source.prefix(24_000).write(to: URL(fileURLWithPath: path))
        let writer = GrowingFileDecoderTests.Writer()
        let decoder = try MPEGDecoder(growingFile: path, arrival: writer.arrival)
        let capture = try Capture()
        let commands = CommandQueue()
        let player = Player(
            decoder: decoder, device: AudioDevice(name: capture.device), commands: commands, engine: PlaybackEngine(),
            limit: nil)
        let pausedWhileWaiting = GrowingFileDecoderTests.Writer()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { commands.post(.pause) }
        // The rest arrives once the pause has been seen (however busy the machine), not at a
        // fixed time that a loaded machine could pass before the pause is taken.
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.0) {
            _ = waitUntil(timeout: 20) { pausedWhileWaiting.isDone }
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(source.dropFirst(24_000))
            handle.closeFile()
            writer.finish()
            commands.post(.resume)
        }
        let reason = try player.play { status in
            if status.event == .stateChanged(.paused, at: status.position), !writer.isDone {
                pausedWhileWaiting.done.withLock { $0 = true }
            }
        }
        #expect(reason == .endOfEpisode)
        #expect(pausedWhileWaiting.isDone)
        #expect(try capture.recorded() == (try MPEGDecoderTests.reference(Self.stereo)))
    }

    @Test func aSeekLandsOnItsTargetSample() throws {
        let commands = CommandQueue()
        var framesBeforeSeek = 0
        let played = try Self.play(Self.stereo, commands: commands) { output in
            guard output.writes == 5 else { return }
            framesBeforeSeek = output.framesWritten
            commands.post(.setPosition(2))
        }
        let reference = try MPEGDecoderTests.reference(Self.stereo)
        #expect(played.heard == reference.prefix(framesBeforeSeek * 4) + reference.dropFirst(88_200 * 4))
    }

    @Test func quittingStopsAtOnceAndKnowsWhereTheListenerIs() throws {
        let commands = CommandQueue()
        let played = try Self.play(Self.stereo, commands: commands) { output in
            if output.writes == 3 { commands.post(.quit) }
        }
        #expect(played.reason == .quit)
        #expect(played.position == played.output.framesWritten - played.output.unplayedFrames)
        #expect(played.position > 0 && played.position < 132_300)
    }

    @Test func volumeScalesEverySampleAndFullVolumeLeavesThemUntouched() throws {
        let reference = MPEGDecoderTests.samples(try MPEGDecoderTests.reference(Self.stereo))
        let half = MPEGDecoderTests.samples(try Self.play(Self.stereo, volume: 50).heard)
        #expect(half.count == reference.count)
        // Cubic: 50% is an eighth of the amplitude.
        #expect(zip(half, reference).allSatisfy { Int($0) == (Int($1) * 8_192) >> 16 })
        #expect(half.map { abs(Int($0)) }.max()! < reference.map { abs(Int($0)) }.max()! / 4)
    }

    @Test func aDeviceThatDoesNotExistIsNamedWithTheWayToChooseAnother() {
        #expect(throws: OutputError.self) {
            try ALSAOutput(device: "podcli_no_such_device", format: AudioFormat(sampleRate: 44_100, channels: 2))
        }
        let message = OutputError.noDevice(name: "default", reason: "No such file or directory").description
        #expect(message.contains("--device"))
        #expect(message.contains("'--device null' plays silently"))
    }
}
