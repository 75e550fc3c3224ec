import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Playback

#if canImport(Glibc)
    import Glibc
#endif

/// The ALSA device on a real, clocked one: a private PulseAudio null sink, reached through
/// ALSA's pulse plugin (the path of most desktops), defined for the test alone.
@Suite(
    .requires(PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled, "needs pulseaudio and libasound2-plugins"))
struct ALSAOutputTests {
    let pulse: PulseAudioServer
    static let format = AudioFormat(sampleRate: 44_100, channels: 2)

    init() throws { pulse = try PulseAudioServer() }

    /// The private sink as an ALSA device named `sink`.
    var configuration: String {
        """
        pcm.sink {
            type pulse
            server "\(pulse.serverAddress)"
            device "\(pulse.sinkName)"
        }
        """
    }

    func open() throws -> ALSAOutput {
        try ALSAOutput(device: "sink", format: Self.format, configuration: configuration)
    }

    /// Frames of noise (never silence).
    static func noise(frames: Int) -> [UInt8] {
        var state: UInt32 = 7
        return (0..<(frames * format.bytesPerFrame)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24) | 1
        }
    }

    /// After a seek (the buffer dropped), two periods written start the sound: the device plays
    /// them (what it holds shrinks) without waiting for a whole buffer that never comes. With
    /// snd_pcm_set_params' start threshold (the whole buffer) it would hold them for good.
    @Test func soundStartsOnceTwoPeriodsAreWrittenNotAWholeBuffer() throws {
        let output = try open()
        #expect(output.bufferFrames >= 4 * output.periodFrames - 4, "a buffer of about four periods")
        let pcm = Self.noise(frames: 2 * output.periodFrames)
        for _ in 0..<2 {
            let result = try pcm.withUnsafeBytes { try output.write($0, waitingUpTo: 1) }
            #expect(result.frames == 2 * output.periodFrames)
            let held = output.unplayedFrames
            #expect(held > 0)
            // The sink takes a new stream within about a second (a null sink's idle blocks).
            #expect(waitUntil(timeout: 5, interval: 0.005) { output.unplayedFrames < held / 2 }, "still holds \(output.unplayedFrames)")
            output.discard()
        }
    }

    /// A write into a full buffer waits no longer than it is told, and says how much it took: the
    /// player's loop then looks at its commands.
    @Test func aWriteIntoAStalledDeviceReturnsInTime() throws {
        let output = try open()
        let pcm = Self.noise(frames: 2048)
        let prefill = Self.noise(frames: output.bufferFrames)
        _ = try prefill.withUnsafeBytes { try output.write($0, waitingUpTo: 1) }
        // The sink stops taking anything while suspended.
        #expect(try pulse.pactl(["suspend-sink", pulse.sinkName, "1"]).succeeded)
        defer { _ = try? pulse.pactl(["suspend-sink", pulse.sinkName, "0"]) }
        var total = 0
        let started = Date()
        for _ in 0..<20 {
            total += try pcm.withUnsafeBytes { try output.write($0, waitingUpTo: 0.025) }.frames
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(total < 20 * 2048, "the stalled device took everything")
        // 20 writes of at most 25 ms each: well under the 10 s a blocking write would wait here.
        #expect(seconds < 5, "\(seconds) s")
    }

    /// The player on a device that stops taking sound (a suspended sink) still carries out a
    /// command at once: its writes wait for room a few milliseconds at a time, not until the
    /// device moves again.
    @Test func aPlayerOnAStalledDeviceStillTakesItsCommands() throws {
        let decoder = try MPEGDecoder(path: fixture("tone-44k-stereo.mp3").path)
        let configuration = configuration
        let commands = CommandQueue()
        let player = Player(
            decoder: decoder,
            device: AudioDevice(name: "sink") { name, format throws(OutputError) in
                try ALSAOutput(device: name, format: format, configuration: configuration)
            }, commands: commands, engine: PlaybackEngine(), limit: nil)
        let pulse = pulse
        let asked = Mutex<Date?>(nil)
        var stalled = false
        var poster: Thread?
        let reason = try player.play { status in
            guard !stalled, status.seconds > 0.3 else { return }
            stalled = true
            _ = try? pulse.pactl(["suspend-sink", pulse.sinkName, "1"])
            // Asked from elsewhere, once the player is deep in writing to the stalled device (its
            // 0.2 s buffer long full).
            poster = Thread {
                Thread.sleep(forTimeInterval: 0.6)
                asked.withLock { $0 = Date() }
                commands.post(.quit)
            }
            poster?.start()
        }
        let answered = Date().timeIntervalSince(asked.withLock { $0 } ?? .distantFuture)
        _ = try? pulse.pactl(["suspend-sink", pulse.sinkName, "0"])
        withExtendedLifetime(poster) {}
        #expect(reason == .quit)
        #expect(answered < 2, "quit took \(answered) s on the stalled device")
    }
}
