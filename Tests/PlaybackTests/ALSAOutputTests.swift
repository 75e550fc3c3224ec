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
    .requires(
        PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled,
        "needs pulseaudio and libasound2-plugins"))
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

    /// Writes `pcm` as the player does: what fits, then waits as long as the device says it needs
    /// to make room; gives up after `timeout` seconds. Returns the frames written.
    static func write(_ pcm: [UInt8], to output: ALSAOutput, timeout: Double) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        var written = 0
        while written < pcm.count / format.bytesPerFrame, Date() < deadline {
            let result = try pcm.withUnsafeBytes {
                try output.write(UnsafeRawBufferPointer(rebasing: $0[(written * format.bytesPerFrame)...]))
            }
            written += result.frames
            if result.readyIn > 0 { Thread.sleep(forTimeInterval: result.readyIn) }
        }
        return written
    }

    /// After a seek (the buffer dropped), two periods written start the sound: the device plays
    /// them (what it holds shrinks) without waiting for a whole buffer that never comes. With
    /// snd_pcm_set_params' start threshold (the whole buffer) it would hold them for good.
    @Test func soundStartsOnceTwoPeriodsAreWrittenNotAWholeBuffer() throws {
        let output = try open()
        #expect(output.bufferFrames >= 4 * output.periodFrames - 4, "a buffer of about four periods")
        let pcm = Self.noise(frames: 2 * output.periodFrames)
        for _ in 0..<2 {
            #expect(try Self.write(pcm, to: output, timeout: 1) == 2 * output.periodFrames)
            let held = output.unplayedFrames
            #expect(held > 0)
            // The sink takes a new stream within about a second (a null sink's idle blocks).
            #expect(
                waitUntil(timeout: 5, interval: 0.005) { output.unplayedFrames < held / 2 },
                "still holds \(output.unplayedFrames)")
            output.discard()
        }
    }

    /// A write into a full buffer returns at once, says how much it took and when to try again:
    /// the player's loop waits for that on its commands.
    @Test func aWriteIntoAStalledDeviceReturnsAtOnce() throws {
        let output = try open()
        let pcm = Self.noise(frames: 2048)
        _ = try Self.write(Self.noise(frames: output.bufferFrames), to: output, timeout: 1)
        // The sink stops taking anything while suspended.
        #expect(try pulse.pactl(["suspend-sink", pulse.sinkName, "1"]).succeeded)
        defer { _ = try? pulse.pactl(["suspend-sink", pulse.sinkName, "0"]) }
        var total = 0
        var waits: [Double] = []
        let started = Date()
        for _ in 0..<20 {
            let result = try pcm.withUnsafeBytes { try output.write($0) }
            total += result.frames
            waits.append(result.readyIn)
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(total < 20 * 2048, "the stalled device took everything")
        #expect(waits.allSatisfy { $0 > 0 && $0 <= 0.25 }, "\(waits)")
        // 20 writes that do not wait: well under the 10 s a blocking write would take here.
        #expect(seconds < 2, "\(seconds) s")
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
