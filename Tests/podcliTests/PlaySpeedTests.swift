import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Speed with the pitch kept, judged on what reaches the device (issue 23): the length and the
/// pitch of a tone measured on the ALSA file tap with an FFT of the test's own; wall time, the
/// positions `status`, MPRIS and the database hold, and a `kill -9`, on a paced PulseAudio null
/// sink, measured on its monitor. Every position is media time.
@Suite(
    .requires(
        TestEnvironment.has("/usr/bin/ffmpeg") && TestEnvironment.has("/usr/bin/mpg123"), "needs ffmpeg and mpg123"))
struct PlaySpeedTests {
    static let paced =
        PlaySessionTests.paced && TestEnvironment.has("/usr/bin/ffmpeg") && TestEnvironment.has("/usr/bin/sqlite3")
    static let bus = PlaySessionTests.bus && TestEnvironment.has("/usr/bin/busctl")
    static let second = 44_100 * 4

    /// A 440 Hz tone of `seconds`, stereo 44.1 kHz FLAC, made by ffmpeg.
    static func tone(seconds: Int) throws -> Data {
        let directory = try TemporaryDirectory(prefix: "podcli-tone")
        let file = directory.appending("tone.flac")
        let made = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/ffmpeg"),
            arguments: [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=44100:duration=\(seconds)", "-ac", "2", file.path,
            ], environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        guard made.status == 0 else { throw TestSupportError("ffmpeg failed: \(made)") }
        return try Data(contentsOf: file)
    }

    static func fetch(_ data: Data, named name: String, into t: CLITestCase) throws -> String {
        let fetch = try t.run(["fetch", try t.source(name, data: data).url, "--json"])
        guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
        return "\((try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any])["id"] as! Int)"
    }

    /// At 2× a 30 s tone comes out as 15 s at 440 Hz; at 0.5× a 10 s one as 20 s, at 440 Hz (±2 %).
    @Test(arguments: [(2.0, 30), (0.5, 10)])
    func aToneTakesItsLengthOverTheSpeedAndKeepsItsPitch(speed: Double, seconds: Int) throws {
        let library = try PlayCommandTests.Library()
        let id = try Self.fetch(try Self.tone(seconds: seconds), named: "tone.flac", into: library.t)
        let play = try library.play([id, "--speed", "\(speed)"])
        #expect(play.status == 0, "\(play)")
        let samples = PCMComparison.samples(try library.captured())
        let heard = Double(samples.count / 2) / 44_100
        let expected = Double(seconds) / speed
        #expect(abs(heard - expected) / expected < 0.02, "\(heard) s, not \(expected) s")
        for part in [0.1, 0.5, 0.9] {
            let offset = Int(Double(samples.count / 2) * part) - 8_192
            let pitch = Spectrum.dominantFrequency(samples, channels: 2, sampleRate: 44_100, offset: offset)
            #expect(pitch.map { abs($0 - 440) / 440 < 0.02 } == true, "\(pitch ?? 0) Hz at \(part) of it")
        }
        #expect(try library.t.show(id)["played"] as? Bool == true)
    }

    /// `--from` and `--for` are media time at 2×: from 10 s for 20 s is 10 s of sound and leaves
    /// the position at 30 s; played on to its end, the 60 s episode is 15 s more and marked played.
    @Test func fromAndForAreMediaTimeAndTheWholeEpisodeIsPlayed() throws {
        let library = try PlayCommandTests.Library()
        let id = try Self.fetch(try Self.tone(seconds: 60), named: "tone.flac", into: library.t)
        let part = try library.play(
            [id, "--speed", "2", "--from", "10", "--for", "20"], device: library.device("part"))
        #expect(part.status == 0, "\(part)")
        let heard = Double(try library.captured("part").count) / Double(Self.second)
        #expect(abs(heard - 10) < 0.2, "\(heard) s of sound")
        let position = try library.t.show(id)["position"] as? Double ?? -1
        #expect(abs(position - 30) < 0.1, "saved at \(position) s")

        let rest = try library.play([id, "--speed", "2"], device: library.device("rest"))
        #expect(rest.status == 0, "\(rest)")
        let restHeard = Double(try library.captured("rest").count) / Double(Self.second)
        #expect(abs(restHeard - 15) < 0.3, "\(restHeard) s of sound")
        #expect(try library.t.show(id)["played"] as? Bool == true)
    }

    /// A 20 s episode at 2× sounds on the sink for 10 s of wall time; meanwhile `status` and MPRIS
    /// (`playerctl position`, `Rate`) tell media time: twice the seconds of sound heard.
    @Test(.requires(paced && bus, "needs pulseaudio, dbus, playerctl, busctl, sqlite3"))
    func atTwiceTheSpeedTwentySecondsTakeTenAndPositionsAreMediaTime() throws {
        let player = try PlaySessionTests.PacedPlayer()
        let id = try Self.fetch(try Self.tone(seconds: 20), named: "tone.flac", into: player.t)
        let monitor = try SinkMonitor(try #require(player.capture.pulseAudio))
        let process = try player.play([id, "--speed", "2"])
        #expect(waitUntil(timeout: 10) { monitor.secondsOfSound() > 2 })
        let status = try player.status()
        let sound = monitor.secondsOfSound()
        let position = status["position"] as? Double ?? -1
        #expect(abs(position - 2 * sound) < 0.5, "at \(position) s after \(sound) s of sound")
        #expect(status["rate"] as? Double == 2)
        let mpris =
            Double(try player.playerctl(["position"]).result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            ?? -1
        #expect(abs(mpris - 2 * monitor.secondsOfSound()) < 0.5, "MPRIS Position \(mpris) s")
        #expect(try Self.property("Rate", player) == "2")
        #expect(try Self.property("MinimumRate", player) == "0.5")
        #expect(try Self.property("MaximumRate", player) == "3")
        let result = try process.waitUntilExit(timeout: 30)
        let wall = monitor.secondsOfSound()
        #expect(result.status == 0, "\(result)")
        #expect(abs(wall - 10) < 0.5, "\(wall) s of wall time")
        #expect(try player.t.show(id)["played"] as? Bool == true)
    }

    /// MPRIS `Rate` is writable (`busctl`'s way, the `Set` of the properties interface): the speed
    /// follows, within its range; a rate of 0 pauses, as the spec says. A seek by MPRIS is in
    /// media time, and so is the Position after it.
    @Test(.requires(paced && bus, "needs pulseaudio, dbus, playerctl, busctl, sqlite3"))
    func mprisRateSetsTheSpeed() throws {
        let player = try PlaySessionTests.PacedPlayer()
        let id = try Self.fetch(try Self.tone(seconds: 60), named: "tone.flac", into: player.t)
        let process = try player.play([id])
        #expect(waitUntil(timeout: 10) { (try? player.playerctl(["status"]).result.stdout) == "Playing\n" })
        try Self.setRate(1.5, player)
        #expect(waitUntil(timeout: 5) { (try? player.status()["rate"] as? Double) == 1.5 })
        #expect(try Self.property("Rate", player) == "1.5")
        try Self.setRate(7, player)
        #expect(waitUntil(timeout: 5) { (try? player.status()["rate"] as? Double) == 3 })
        _ = try player.playerctl(["position", "40"])
        #expect(
            waitUntil(timeout: 5) { (try? player.status()["position"] as? Double).map { $0 >= 40 && $0 < 43 } ?? false }
        )
        let mpris =
            Double(try player.playerctl(["position"]).result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            ?? -1
        #expect(mpris >= 40 && mpris < 44, "MPRIS Position \(mpris) s")
        try Self.setRate(0, player)
        #expect(waitUntil(timeout: 5) { (try? player.status()["state"] as? String) == "paused" })
        #expect(try player.t.run(["stop"]).status == 0)
        #expect(try process.waitUntilExit().status == 0)
        _ = id
    }

    /// At 2× and 3×, the position is saved at least every second of media (`kill -9` loses no
    /// more), and what a `kill -9` leaves is the media time heard on the sink, less at most 1 s.
    @Test(.requires(paced, "needs pulseaudio and sqlite3"), arguments: [2.0, 3.0])
    func aKillLosesAtMostASecondOfMediaAtAnySpeed(speed: Double) throws {
        let player = try PlaySessionTests.PacedPlayer()
        let id = try Self.fetch(try Self.tone(seconds: 60), named: "tone.flac", into: player.t)
        let monitor = try SinkMonitor(try #require(player.capture.pulseAudio))
        let process = try player.play([id, "--speed", "\(speed)", "--from", "0"])
        #expect(waitUntil(timeout: 10) { monitor.secondsOfSound() > 0.5 })
        // Every save seen for 3 s of wall time (a read takes a few milliseconds).
        var saves: [Double] = []
        let until = Date(timeIntervalSinceNow: 3)
        while Date() < until {
            if let saved = try Self.savedPosition(id, player), saved != saves.last { saves.append(saved) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let gaps = zip(saves, saves.dropFirst()).map { $1 - $0 }
        #expect(saves.count > 3 && gaps.allSatisfy { $0 > 0 && $0 <= 1 }, "saved at \(saves)")
        let killed = ContinuousClock.now
        process.kill(signal: SIGKILL)
        _ = try process.waitUntilExit()
        let heard = speed * monitor.secondsOfSound(until: killed)
        let saved = try Self.savedPosition(id, player) ?? -1
        #expect(saved >= heard - 1 && saved <= heard + 0.5, "saved \(saved) s, heard \(heard) s")
    }

    /// The saved position in seconds, read from the database by the sqlite3 CLI (fast enough to
    /// see every save).
    static func savedPosition(_ id: String, _ player: PlaySessionTests.PacedPlayer) throws -> Double? {
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
            arguments: [
                "-readonly", player.t.home.path + "/podcli.db",
                "SELECT position_ms FROM playback_state WHERE episode_id = \(id)",
            ],
            environment: [:]
        ).waitUntilExit()
        return Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 / 1000 }
    }

    /// A property of the player's MPRIS interface, as `busctl` prints its value ("d 1.5" → "1.5").
    static func property(_ name: String, _ player: PlaySessionTests.PacedPlayer) throws -> String {
        let result = try busctl(["get-property"] + target + [name], player)
        return String(result.split(separator: " ").last ?? "")
    }

    static func setRate(_ rate: Double, _ player: PlaySessionTests.PacedPlayer) throws {
        _ = try busctl(["set-property"] + target + ["Rate", "d", "\(rate)"], player)
    }

    static let target = ["org.mpris.MediaPlayer2.podcli", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player"]

    static func busctl(_ arguments: [String], _ player: PlaySessionTests.PacedPlayer) throws -> String {
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/busctl"),
            arguments: ["--address=\(player.bus.address)"] + arguments, environment: player.environment
        ).waitUntilExit(timeout: 30)
        guard result.status == 0 else { throw TestSupportError("busctl failed: \(result)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
