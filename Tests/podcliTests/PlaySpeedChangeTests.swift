import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// How soon a speed change is heard (issue 23: within 100 ms, measured on the sink), on a paced
/// PulseAudio null sink recorded on its monitor. At 1× what the sink plays is ffmpeg's decode of
/// the file, bit for bit; a `speed 2` sent on the control socket is heard at the first frame
/// that differs from it (as bench/speed_probe.py finds it).
@Suite(.requires(PlaySpeedTests.paced, "needs pulseaudio, mpg123, ffmpeg and sqlite3"))
struct PlaySpeedChangeTests {
    /// Three changes to 2× (back to 1× between them): the median heard within 100 ms of the
    /// request, none later than 150 ms. A machine too busy to keep the device fed (a gap heard)
    /// rightly gets the whole buffer from then on: one more try on a new player.
    @Test func aSpeedChangeIsHeardWithinATenthOfASecond() throws {
        for attempt in 1...2 {
            let session = try Session()
            let heard = try (0..<3).map { _ in try session.changeHeard() }
            if session.monitor.longestGap > 0.01 && attempt == 1 { continue }
            #expect(session.monitor.longestGap <= 0.01, "a gap of \(session.monitor.longestGap) s, twice")
            #expect(heard.sorted()[1] <= 0.1 && heard.allSatisfy { $0 <= 0.15 }, "heard after \(heard) s")
            return
        }
    }

    /// A player held up long enough for the device to run dry (stopped 300 ms) fills the device
    /// further ahead from then on, so it does not run dry again: a change is heard later than
    /// before, and the sound plays on. A player that ran dry before the stop (a machine too busy)
    /// already fills further ahead, so "before" would not be before: one more try on a new player.
    @Test func aPlayerThatRanDryFillsFurtherAhead() throws {
        for attempt in 1...2 {
            let session = try Session()
            let before = try session.changeHeard()
            if session.monitor.longestGap > 0.01 && attempt == 1 { continue }
            #expect(
                session.monitor.longestGap <= 0.01, "ran dry (\(session.monitor.longestGap) s) before the stop, twice")
            kill(session.process.pid, SIGSTOP)
            Thread.sleep(forTimeInterval: 0.3)
            kill(session.process.pid, SIGCONT)
            let after = try session.changeHeard()
            #expect(after > before + 0.04 && after > 0.12, "heard after \(before) s, then \(after) s")
            #expect(session.monitor.longestGap > 0.1, "the device never ran dry")
            return
        }
    }

    /// A player of 30 s of pink noise at 1× on the paced sink, recorded from before it starts.
    final class Session {
        let player: PlaySessionTests.PacedPlayer
        let monitor: SinkMonitor
        let process: RunningProcess
        /// ffmpeg's decode of the file (s16le stereo 44.1 kHz).
        let reference: Data

        init() throws {
            player = try PlaySessionTests.PacedPlayer()
            let directory = try TemporaryDirectory(prefix: "podcli-noise")
            let file = directory.appending("noise.flac")
            try Self.ffmpeg([
                "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.3:duration=30:sample_rate=44100",
                "-ac", "2", file.path,
            ])
            let raw = directory.appending("noise.raw")
            try Self.ffmpeg(["-i", file.path, "-f", "s16le", "-acodec", "pcm_s16le", raw.path])
            reference = try Data(contentsOf: raw)
            let id = try player.fetch(try Data(contentsOf: file), named: "noise.flac")
            monitor = try SinkMonitor(try #require(player.capture.pulseAudio), keepsRecording: true)
            process = try player.play([id])
            guard waitUntil(timeout: 10, { self.monitor.secondsOfSound() > 1 }) else {
                throw TestSupportError("nothing heard on the sink")
            }
        }

        deinit {
            process.kill(signal: SIGKILL)
            _ = try? process.waitUntilExit()
        }

        static func ffmpeg(_ arguments: [String]) throws {
            let made = try RunningProcess(
                executable: URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                arguments: ["-nostdin", "-loglevel", "error", "-y"] + arguments,
                environment: ProcessInfo.processInfo.environment
            ).waitUntilExit()
            guard made.status == 0 else { throw TestSupportError("ffmpeg failed: \(made)") }
        }

        /// Plays on at 1× for a while, asks for 2×; returns the seconds from the request to the
        /// first frame the sink played differently from the reference. Leaves the player at 1×.
        func changeHeard() throws -> Double {
            try send("speed 1")
            try recordUntil(.now + .seconds(1))
            // Where the sink is in the reference: a stretch recorded a little before now.
            let recorded = monitor.recording
            let window = recorded.count - recorded.count % 4 - 8_192
            guard let found = reference.range(of: recorded[window..<(window + 4_096)]) else {
                throw TestSupportError("at 1x the sink did not play the decode bit for bit")
            }
            let sent = ContinuousClock.now
            try send("speed 2")
            try recordUntil(sent + .milliseconds(500))
            let after = monitor.recording
            let differs = after.withUnsafeBytes { heard in
                reference.withUnsafeBytes { decoded in
                    var offset = window
                    var expected = found.lowerBound
                    while offset + 4 <= heard.count, expected + 4 <= decoded.count,
                        memcmp(heard.baseAddress! + offset, decoded.baseAddress! + expected, 4) == 0
                    {
                        offset += 4
                        expected += 4
                    }
                    return offset
                }
            }
            guard let change = monitor.instant(ofByte: differs) else { throw TestSupportError("no recording") }
            let elapsed = sent.duration(to: change).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }

        /// Waits until the monitor has recorded what the sink played up to `instant`.
        private func recordUntil(_ instant: ContinuousClock.Instant) throws {
            let monitor = monitor
            guard
                waitUntil(
                    timeout: 10, { monitor.instant(ofByte: monitor.recording.count).map { $0 >= instant } ?? false })
            else { throw TestSupportError("the sink stopped playing") }
        }

        /// Sends one command line on the player's control socket and reads its answer.
        private func send(_ line: String) throws {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestSupportError("socket: \(errno)") }
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let path = Array(player.t.home.appending("control").path.utf8CString)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.map { UInt8(bitPattern: $0) }) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard connected == 0 else { throw TestSupportError("connect: \(errno)") }
            let bytes = Array((line + "\n").utf8)
            guard write(descriptor, bytes, bytes.count) == bytes.count else {
                throw TestSupportError("write: \(errno)")
            }
            var answer = [UInt8](repeating: 0, count: 256)
            _ = read(descriptor, &answer, answer.count)
        }
    }
}
