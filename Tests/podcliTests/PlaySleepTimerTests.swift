import Foundation
import TestSupport
import Testing

/// The sleep timer (issue 23), judged on what reached the device: an ALSA `file` capture, and the
/// tap in front of a paced PulseAudio null sink where wall time matters. The levels are measured
/// here, from the captured samples, never taken from podcli.
@Suite(
    .requires(
        ["/usr/bin/mpg123", "/usr/bin/sox", "/usr/bin/lame"].allSatisfy(TestEnvironment.has),
        "needs mpg123, sox and lame"))
struct PlaySleepTimerTests {
    static let paced = PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled
    /// Frames a second of the tone, and bytes a frame (16-bit stereo).
    static let rate = 44_100
    static let frameBytes = 4

    /// A 40 s stereo 440 Hz sine at half scale, 44.1 kHz (128 kbit/s keeps lame from resampling).
    static func tone() throws -> Data {
        let directory = try TemporaryDirectory(prefix: "podcli-tone")
        let wav = directory.path + "/tone.wav"
        let mp3 = directory.path + "/tone.mp3"
        for (tool, arguments) in [
            (
                "/usr/bin/sox",
                ["-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", "40", "sine", "440", "vol", "0.5"]
            ),
            ("/usr/bin/lame", ["--quiet", "-b", "128", wav, mp3]),
        ] {
            let result = try RunningProcess(
                executable: URL(fileURLWithPath: tool), arguments: arguments, environment: [:]
            )
            .waitUntilExit()
            guard result.status == 0 else { throw TestSupportError("\(tool) failed: \(result)") }
        }
        return try Data(contentsOf: URL(fileURLWithPath: mp3))
    }

    /// The level of the tone as published: a sine of amplitude 0.5 has an RMS of 0.5/√2.
    static let fullLevel = 0.5 / 2.0.squareRoot() * 32_768

    /// RMS of each `window` seconds of 16-bit interleaved PCM.
    static func levels(_ pcm: Data, window: Double) -> [Double] {
        let samples = PCMComparison.samples(pcm)
        let size = Int(window * Double(rate)) * 2
        return stride(from: 0, to: samples.count - size + 1, by: size).map { start in
            var sum = 0.0
            for sample in samples[start..<(start + size)] { sum += Double(sample) * Double(sample) }
            return (sum / Double(size)).squareRoot()
        }
    }

    static func seconds(_ pcm: Data) -> Double { Double(pcm.count / frameBytes) / Double(rate) }

    /// The sound fades over its whole length (`levels` in quarter seconds): full at first, each
    /// quarter quieter than the one before, near silence at the end.
    static func expectFadingThroughout(
        _ levels: [Double], from full: Double = fullLevel, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect((levels.first ?? 0) > 0.85 * full, "\(levels)", sourceLocation: sourceLocation)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 > $1 }, "\(levels)", sourceLocation: sourceLocation)
        #expect((levels.last ?? .infinity) < 0.001 * full, "\(levels)", sourceLocation: sourceLocation)
    }

    /// A library with the tone downloaded, and a paced capture device (with a PulseAudio server).
    struct SleepyPlayer {
        let library: PlayCommandTests.Library
        let id: String
        let directory: TemporaryDirectory
        let capture: ALSACapture
        var t: CLITestCase { library.t }

        init(paced: Bool) throws {
            library = try PlayCommandTests.Library()
            let tone = try PlaySleepTimerTests.tone()
            let fetch = try library.t.run(["fetch", try library.t.source("tone.mp3", data: tone).url, "--json"])
            guard fetch.status == 0 else { throw TestSupportError("fetch failed: \(fetch)") }
            id = "\((try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any])["id"] as! Int)"
            directory = try TemporaryDirectory(prefix: "podcli-sleep")
            capture = try ALSACapture(directory: directory, pulseAudio: paced ? try PulseAudioServer() : nil)
        }

        var environment: [String: String] { t.podcli.childEnvironment(capture.environment) }

        func play(_ arguments: [String]) throws -> RunningProcess {
            try RunningProcess(
                executable: t.podcli.executableURL,
                arguments: ["--home", t.home.path, "play"] + arguments + ["--device", ALSACapture.pacedDeviceName],
                environment: environment)
        }

        /// Seconds written to the paced tap so far (it lags the device by one ALSA buffer).
        var heardSeconds: Double { Double(capture.pacedCapturedByteCount) / Double(rate * frameBytes) }

        func status() throws -> [String: Any] {
            let result = try t.run(["status", "--json"])
            return (try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]) ?? [:]
        }

        func position() throws -> Double { try t.show(id)["position"] as? Double ?? -1 }
    }

    /// `--sleep 4s` with less than the fade's 10 s: the whole 4 s fade, each quarter second
    /// quieter than the last, down to silence; the position saved is where the fade began (the
    /// start, here), and `play` says the sleep timer stopped it.
    @Test func aFourSecondTimerFadesOverItsFourSecondsAndSavesWhereTheFadeBegan() throws {
        let player = try SleepyPlayer(paced: false)
        let play = try player.library.play([player.id, "--from", "5", "--sleep", "4s"])
        #expect(play.status == 0, "\(play)")
        #expect(
            play.stdout == "Playing #\(player.id) tone from 0:05 of 0:40\n"
                + "Sleep timer: stopped at 0:05 of 0:40, where the fade began\n")
        let heard = try player.library.captured()
        // Up to the deadline, and at most one chunk (2048 frames) of silence past it.
        #expect(Self.seconds(heard) >= 4 && Self.seconds(heard) <= 4.05, "\(Self.seconds(heard)) s")
        Self.expectFadingThroughout(Self.levels(heard.prefix(4 * Self.rate * Self.frameBytes), window: 0.25))
        #expect(try player.position() == 5)
        #expect(try player.t.show(player.id)["played"] as? Bool == false)
    }

    /// An episode that ends during the fade: the next one goes on fading from where the sound
    /// was (no jump back up), and is left at its start, where the listener began to hear it fade.
    @Test func theNextEpisodeGoesOnFadingFromWhereTheLastOneLeftIt() throws {
        let player = try SleepyPlayer(paced: false)
        let fetch = try player.t.run(["fetch", try player.t.source("again.mp3", data: try Self.tone()).url, "--json"])
        let next = "\((try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any])["id"] as! Int)"
        #expect(try player.t.run(["queue", "add", next]).status == 0)
        let play = try player.library.play([player.id, "--from", "37", "--sleep", "5s"])
        #expect(play.status == 0, "\(play)")
        #expect(play.stdout.hasSuffix("Sleep timer: stopped at 0:00 of 0:40, where the fade began\n"), "\(play)")
        let heard = try player.library.captured()
        #expect(Self.seconds(heard) >= 5 && Self.seconds(heard) <= 5.05, "\(Self.seconds(heard)) s")
        // Quarter seconds: 12 of the first episode's last 3 s, then 8 of the next one.
        Self.expectFadingThroughout(Self.levels(heard.prefix(5 * Self.rate * Self.frameBytes), window: 0.25))
        #expect(try player.t.show(player.id)["played"] as? Bool == true)
        #expect(try player.t.show(next)["position"] as? Double == 0)
    }

    /// On a device that plays in real time the timer is wall time: the sound lasts 4 s, fading,
    /// and `play` ends right after (not before: it cannot end before its sound).
    @Test(.requires(paced, "needs pulseaudio and libasound2-plugins"))
    func onAPacedDeviceFourSecondsOfSleepAreFourSecondsOfSound() throws {
        let player = try SleepyPlayer(paced: true)
        let started = Date()
        let process = try player.play([player.id, "--from", "5", "--sleep", "4s"])
        let result = try process.waitUntilExit(timeout: 30)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result)")
        #expect(took >= 4 && took < 8, "play took \(took) s")
        let heard = try player.capture.pacedCaptured()
        #expect(Self.seconds(heard) >= 4 && Self.seconds(heard) <= 4.05, "\(Self.seconds(heard)) s")
        Self.expectFadingThroughout(Self.levels(heard.prefix(4 * Self.rate * Self.frameBytes), window: 0.25))
        #expect(try player.position() == 5)
    }

    /// At 2× a 15 s timer is 15 s of wall time (30 s of the episode): full sound for 5 s, then the
    /// 10 s fade; the position saved is where the fade began, 5 s of listening = 10 s of media.
    @Test(.requires(paced, "needs pulseaudio and libasound2-plugins"))
    func atTwiceTheSpeedTheTimerCountsWallTime() throws {
        let player = try SleepyPlayer(paced: true)
        let started = Date()
        let process = try player.play([player.id, "--from", "0", "--speed", "2", "--sleep", "15s"])
        let result = try process.waitUntilExit(timeout: 60)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasSuffix("Sleep timer: stopped at 0:10 of 0:40, where the fade began\n"), "\(result)")
        #expect(took >= 15 && took < 19, "play took \(took) s")
        let heard = try player.capture.pacedCaptured()
        #expect(Self.seconds(heard) >= 15 && Self.seconds(heard) <= 15.05, "\(Self.seconds(heard)) s")
        let levels = Self.levels(heard, window: 0.25)
        // Before the fade, as loud as libsonic makes the sine at 2× (its first quarter second
        // ramps in); then the fade.
        let full = levels[1..<20].reduce(0, +) / 19
        #expect(levels[1..<20].allSatisfy { abs($0 - full) < 0.05 * full }, "\(levels[..<20])")
        #expect(full > 0.8 * Self.fullLevel, "\(full)")
        Self.expectFadingThroughout(Array(levels[20..<60]), from: full)
        let position = try player.position()
        #expect(abs(position - 10) <= 0.2, "saved at \(position) s")
    }

    /// Pausing pauses the countdown: what is left stays while paused, and the sound still lasts
    /// the 4 s asked for.
    @Test(.requires(paced, "needs pulseaudio and libasound2-plugins"))
    func pausingStopsTheCountdown() throws {
        let player = try SleepyPlayer(paced: true)
        let process = try player.play([player.id, "--sleep", "4s"])
        defer { process.kill(signal: SIGKILL) }
        #expect(waitUntil(timeout: 10) { player.heardSeconds > 1 })
        #expect(try player.t.run(["pause"]).status == 0)
        #expect(waitUntil(timeout: 5) { (try? player.status()["state"] as? String) == "paused" })
        let left = try #require(try player.status()["sleep"] as? Double)
        // Half a second of pause at least, however slow `status` is to answer.
        let paused = Date()
        #expect(waitUntil(timeout: 5) { Date().timeIntervalSince(paused) > 0.5 })
        let later = try #require(try player.status()["sleep"] as? Double)
        #expect(abs(later - left) <= 0.05, "\(left) s left, then \(later) s")
        #expect(left > 0 && left < 3.5, "\(left)")
        #expect(try player.t.run(["resume"]).status == 0)
        let result = try process.waitUntilExit(timeout: 30)
        #expect(result.status == 0, "\(result)")
        let heard = try player.capture.pacedCaptured()
        #expect(Self.seconds(heard) >= 4 && Self.seconds(heard) <= 4.05, "\(Self.seconds(heard)) s")
    }

    /// `podcli sleep +5m` during the fade calls it off: the sound comes back up, smoothly (no step
    /// of more than a fifth of the level from one 50 ms to the next), and `status` shows the new
    /// time left, in words and in JSON; `podcli sleep off` turns the timer off.
    @Test(.requires(paced, "needs pulseaudio and libasound2-plugins"))
    func extendingDuringTheFadeBringsTheSoundBackAndOffTurnsItOff() throws {
        let player = try SleepyPlayer(paced: true)
        // The fade begins after 2 s of listening.
        let process = try player.play([player.id, "--from", "0", "--sleep", "12s"])
        defer { process.kill(signal: SIGKILL) }
        #expect(waitUntil(timeout: 10) { player.heardSeconds > 3.5 })
        #expect(try player.t.run(["sleep", "+5m"]).status == 0)
        // The player takes the request between two writes, after the socket has said ok.
        #expect(waitUntil(timeout: 5) { ((try? player.status())?["sleep"] as? Double ?? 0) > 300 })
        let extended = try #require(try player.status()["sleep"] as? Double)
        #expect(extended > 300 && extended < 310, "\(extended)")
        #expect(try player.t.run(["status"]).stdout.contains("\nSleep timer: stops in 5:0"))
        #expect(waitUntil(timeout: 10) { player.heardSeconds > 7 })
        #expect(try player.t.run(["sleep", "off"]).status == 0)
        #expect(waitUntil(timeout: 5) { (try? player.status()).map { $0["sleep"] == nil } ?? false })
        let status = try player.status()
        #expect(status["sleep"] == nil && status["state"] as? String == "playing", "\(status)")
        #expect(!(try player.t.run(["status"]).stdout.contains("Sleep timer")))
        #expect(try player.t.run(["stop"]).status == 0)
        #expect(try process.waitUntilExit(timeout: 30).status == 0)

        let levels = Self.levels(try player.capture.pacedCaptured(), window: 0.05)
        // The tone as the MP3 gives it, the first 2 s (before the fade).
        let full = levels[10..<40].reduce(0, +) / 30
        #expect(full > 0.9 * Self.fullLevel && levels[10..<40].allSatisfy { $0 > 0.98 * full }, "\(levels[..<40])")
        #expect(levels[40..<120].min()! < 0.8 * full, "the fade had begun: \(levels[40..<120])")
        #expect(levels[(levels.count - 20)...].allSatisfy { $0 > 0.98 * full }, "back to full: \(levels.suffix(20))")
        let steps = zip(levels.dropFirst(5), levels.dropFirst(6)).map { abs($0 - $1) }
        #expect(steps.max()! < 0.2 * full, "largest step \(steps.max()! / full) of full")
    }

    /// `podcli sleep end` stops at the end of the episode: it is marked played and leaves the
    /// queue as usual, but the queue does not go on. Sound untouched: the tap holds exactly what
    /// mpg123 decodes of the episode.
    @Test(.requires(paced, "needs pulseaudio and libasound2-plugins"))
    func sleepEndStopsAtTheEndOfTheEpisodeAndTheQueueDoesNotGoOn() throws {
        let player = try SleepyPlayer(paced: true)
        let first = try player.library.download(PlayCommandTests.stereo)
        #expect(try player.t.run(["queue", "add", first, player.id]).status == 0)
        let process = try player.play([])
        defer { process.kill(signal: SIGKILL) }
        #expect(waitUntil(timeout: 10) { player.heardSeconds > 0.3 })
        #expect(try player.t.run(["sleep", "end"]).status == 0)
        // The player takes the request between two writes, after the socket has said ok.
        #expect(waitUntil(timeout: 5) { (try? player.status())?["sleep"] as? String == "end" })
        #expect(try player.t.run(["status"]).stdout.contains("\nSleep timer: stops at the end of the episode\n"))
        let result = try process.waitUntilExit(timeout: 30)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.hasSuffix(
                "Played #\(first) tone-44k-stereo\nSleep timer: stopped at the end of #\(first)\n"), "\(result)")
        #expect(try player.capture.pacedCaptured() == (try PlayCommandTests.reference(PlayCommandTests.stereo)))
        #expect(try player.t.show(first)["played"] as? Bool == true)
        #expect(try player.t.show(player.id)["played"] as? Bool == false)
        #expect(try player.position() == 0)
        let queue = try JSONSerialization.jsonObject(with: try player.t.run(["queue", "ls", "--json"]).stdoutData)
        #expect((queue as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [Int(player.id)!], "\(queue)")
    }

    /// The sleep key, on a real terminal: off, 15, 30, 45, 60 minutes, the end of the episode,
    /// off again; the now-playing line shows what is left.
    @Test(.requires(paced, "needs pulseaudio and libasound2-plugins"))
    func theSleepKeyCyclesThroughItsChoices() throws {
        let player = try SleepyPlayer(paced: true)
        let session = try TerminalSession(
            executable: player.t.podcli.executableURL,
            arguments: ["--home", player.t.home.path, "play", player.id, "--device", ALSACapture.pacedDeviceName],
            environment: player.environment)
        #expect(waitUntil(timeout: 10) { player.heardSeconds > 0.3 })
        func sleepLeft() -> Any? { try? player.status()["sleep"] }
        for minutes in [15.0, 30, 45, 60] {
            session.type("z")
            #expect(
                waitUntil(timeout: 5) {
                    (sleepLeft() as? Double).map { $0 > minutes * 60 - 5 && $0 <= minutes * 60 } ?? false
                }, "\(minutes) min: \(String(describing: sleepLeft()))")
        }
        #expect(session.waitForOutput(containing: "sleep 59:5"), "\(session.output)")
        session.type("z")
        #expect(waitUntil(timeout: 5) { sleepLeft() as? String == "end" })
        #expect(session.waitForOutput(containing: "sleep at end"), "\(session.output)")
        session.type("z")
        #expect(waitUntil(timeout: 5) { sleepLeft() == nil && (try? player.status()["state"]) != nil })
        session.type("q")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
    }
}
