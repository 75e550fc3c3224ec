import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test plumbing itself (Tests/Support/SoundDevices.swift), proven with Debian's own ALSA
/// player, `aplay` (alsa-utils), not with podcli: what a player sends to the capture devices
/// arrives byte for byte, and the paced device takes real time.
@Suite struct SoundDevicesTests {
    static let aplay = "/usr/bin/aplay"
    static let aplayPresent = FileManager.default.isExecutableFile(atPath: aplay)
    static let pulseAudioUsable =
        aplayPresent && PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled

    static let rate = 44_100
    static let channels = 2

    /// `seconds` of 16-bit stereo noise at 44.1 kHz, the same bytes every time.
    static func noise(seconds: Double, seed: UInt32 = 12_345) -> Data {
        let samples = Int(seconds * Double(rate)) * channels
        var state = seed
        var pcm = Data(count: samples * 2)
        pcm.withUnsafeMutableBytes { raw in
            let out = raw.bindMemory(to: Int16.self)
            for i in 0..<samples {
                state = state &* 1_664_525 &+ 1_013_904_223
                out[i] = Int16(truncatingIfNeeded: Int32(bitPattern: state) >> 17).littleEndian
            }
        }
        return pcm
    }

    /// `pcm` in a WAV container. aplay then knows the exact length; from a raw file it pads
    /// the last period with silence.
    static func wav(_ pcm: Data) -> Data {
        func le32(_ v: Int) -> Data { withUnsafeBytes(of: UInt32(v).littleEndian) { Data($0) } }
        func le16(_ v: Int) -> Data { withUnsafeBytes(of: UInt16(v).littleEndian) { Data($0) } }
        var d = Data("RIFF".utf8) + le32(36 + pcm.count) + Data("WAVEfmt ".utf8)
        d += le32(16) + le16(1) + le16(channels) + le32(rate) + le32(rate * channels * 2)
        d += le16(channels * 2) + le16(16) + Data("data".utf8) + le32(pcm.count)
        return d + pcm
    }

    /// Plays `file` with aplay on `device`. Periods of 4,410 frames divide the test's 44,100
    /// frames, so aplay adds no padding (it fills a last partial period with silence).
    static func aplay(_ file: URL, device: String, capture: ALSACapture) throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        env.merge(capture.environment) { _, new in new }
        return try RunningProcess(
            executable: URL(fileURLWithPath: aplay),
            arguments: ["-q", "-D", device, "--period-size=4410", "--buffer-size=17640", file.path],
            environment: env
        ).waitUntilExit(timeout: 60)
    }

    @Test(.requires(aplayPresent, "aplay is not installed (alsa-utils)"))
    func theCaptureDeviceRecordsExactlyWhatWasPlayed() throws {
        let dir = try TemporaryDirectory(prefix: "podcli-sound")
        let capture = try ALSACapture(directory: dir)
        let pcm = Self.noise(seconds: 1)
        let file = try dir.write(Self.wav(pcm), to: "noise.wav")

        let started = Date()
        let result = try Self.aplay(file, device: ALSACapture.deviceName, capture: capture)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.succeeded, "\(result)")
        #expect(try capture.captured() == pcm)
        #expect(elapsed < 0.9, "the null device is not paced: 1 s of sound took \(elapsed) s")
        var st = stat()
        #expect(stat(capture.captureURL.path, &st) == 0 && st.st_mode & 0o777 == 0o644)
        #expect(capture.capturedByteCount == pcm.count)
    }

    @Test(.requires(aplayPresent, "aplay is not installed (alsa-utils)"))
    func aSecondOpenGoesToTheNextFileAndCapturedJoinsThem() throws {
        let dir = try TemporaryDirectory(prefix: "podcli-sound")
        let capture = try ALSACapture(directory: dir)
        let first = Self.noise(seconds: 1, seed: 1)
        let second = Self.noise(seconds: 1, seed: 2)
        let firstFile = try dir.write(Self.wav(first), to: "first.wav")
        let secondFile = try dir.write(Self.wav(second), to: "second.wav")

        #expect(try Self.aplay(firstFile, device: ALSACapture.deviceName, capture: capture).succeeded)
        #expect(try Self.aplay(secondFile, device: ALSACapture.deviceName, capture: capture).succeeded)
        #expect(capture.captureFiles().map(\.lastPathComponent) == ["capture.raw", "capture.raw.0001"])
        #expect(try capture.captured() == first + second)

        try capture.removeCaptures()
        #expect(capture.captureFiles().isEmpty)
        #expect(try capture.captured().isEmpty)
    }

    @Test(.requires(aplayPresent, "aplay is not installed (alsa-utils)"))
    func routeDefaultMakesTheDefaultDeviceTheCapture() throws {
        let dir = try TemporaryDirectory(prefix: "podcli-sound")
        let capture = try ALSACapture(directory: dir, routeDefault: true)
        let pcm = Self.noise(seconds: 1, seed: 3)
        let file = try dir.write(Self.wav(pcm), to: "noise.wav")
        #expect(try Self.aplay(file, device: "default", capture: capture).succeeded)
        #expect(try capture.captured() == pcm)
    }

    @Test(.requires(pulseAudioUsable, "needs aplay, pulseaudio, pactl and libasound2-plugins"))
    func thePacedDeviceTakesRealTimeAndRecordsExactly() throws {
        let server = try PulseAudioServer()
        let dir = try TemporaryDirectory(prefix: "podcli-sound")
        let capture = try ALSACapture(directory: dir, pulseAudio: server)
        let pcm = Self.noise(seconds: 1, seed: 4)
        let file = try dir.write(Self.wav(pcm), to: "noise.wav")

        let started = Date()
        let result = try Self.aplay(file, device: ALSACapture.pacedDeviceName, capture: capture)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.succeeded, "\(result)\n--- pulseaudio log ---\n\(server.log)")
        #expect(elapsed >= 0.9, "1.0 s of sound played in \(elapsed) s: not paced")
        // 1 s, plus up to 2 s of null-sink start-up (see PulseAudioServer), plus slack.
        #expect(elapsed < 10)
        #expect(try capture.pacedCaptured() == pcm)
        #expect(try capture.captured().isEmpty)
    }

    @Test(.requires(pulseAudioUsable, "needs aplay, pulseaudio, pactl and libasound2-plugins"))
    func thePlainPulseDeviceReachesThePrivateServer() throws {
        let server = try PulseAudioServer()
        let dir = try TemporaryDirectory(prefix: "podcli-sound")
        let capture = try ALSACapture(directory: dir, pulseAudio: server)
        let file = try dir.write(Self.wav(Self.noise(seconds: 0.5, seed: 5)), to: "noise.wav")
        let result = try Self.aplay(file, device: "pulse", capture: capture)
        #expect(result.succeeded, "\(result)")
        #expect(server.log.contains("Created input"), "\(server.log)")
    }

    @Test(.requires(PulseAudioServer.unavailableReason == nil, "pulseaudio or pactl is not installed"))
    func serversStartQuicklySideBySideAndStop() throws {
        let started = Date()
        let a = try PulseAudioServer()
        let b = try PulseAudioServer(sinkName: "other_sink", sampleRate: 48_000, channels: 1)
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 5, "two servers took \(elapsed) s to start")
        #expect(a.serverAddress != b.serverAddress)
        #expect(a.serverAddress.hasPrefix("unix:/"))
        let infoA = try a.pactl(["info"])
        let infoB = try b.pactl(["info"])
        #expect(infoA.stdout.contains("Default Sink: podcli_null"))
        #expect(infoB.stdout.contains("Default Sink: other_sink"))
        #expect(
            try b.pactl(["list", "short", "sinks"]).stdout.contains("other_sink\tmodule-null-sink.c\ts16le 1ch 48000Hz")
        )
        #expect(a.isRunning && b.isRunning)

        a.stop()
        #expect(!a.isRunning)
        #expect(a.log.contains("Daemon startup complete"), "stop() keeps the log until deinit")
        #expect(b.isRunning)
        #expect(try a.pactl(["info"]).succeeded == false)
        a.stop()  // idempotent
        b.stop()
        #expect(!b.isRunning)
    }

    @Test(.requires(PulseAudioServer.unavailableReason == nil, "pulseaudio or pactl is not installed"))
    func aServerLeavesNoProcessAndNoDirectoryBehind() throws {
        var directory = ""
        var pid: Int32 = 0
        do {
            let server = try PulseAudioServer()
            directory = server.directory.path
            pid = server.pid
            #expect(kill(pid, 0) == 0)
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
        #expect(kill(pid, 0) == -1)
    }

    @Test func aMissingPulseAudioIsNamedClearly() {
        let reason = PulseAudioServer.unavailableReason(searchPath: "/nonexistent")
        #expect(reason?.contains("pulseaudio (package pulseaudio)") == true)
        #expect(reason?.contains("pactl (package pulseaudio-utils)") == true)
        #expect(reason?.contains("apt-get install") == true)
    }
}
