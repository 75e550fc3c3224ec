import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `podcli play` in real time, as a person uses it: on a real pty, with keys typed, and stopped by
/// signals. The device is a private PulseAudio null sink (paced like a sound card) behind an ALSA
/// `file` tap, so what reached the device is compared with `mpg123 -s`.
@Suite(
    .requires(
        PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123"),
        "needs pulseaudio, libasound2-plugins and mpg123"))
struct PlayTerminalTests {
    /// A library with one downloaded episode and a paced capture device.
    struct Player {
        let library: PlayCommandTests.Library
        let directory: TemporaryDirectory
        let pulse: PulseAudioServer
        let capture: ALSACapture
        let id: String
        /// The file system the library is on, when it is a small one of its own.
        let disk: SmallDisk?

        /// - Parameter diskKibibytes: puts the library on a tmpfs of that size (root only).
        init(_ fixtureName: String = PlayCommandTests.stereo, diskKibibytes: Int? = nil) throws {
            library = try PlayCommandTests.Library()
            disk = try diskKibibytes.map { [library] in try SmallDisk(at: library.t.home.path, kibibytes: $0) }
            directory = try TemporaryDirectory(prefix: "podcli-paced")
            pulse = try PulseAudioServer()
            capture = try ALSACapture(directory: directory, pulseAudio: pulse)
            id = try library.download(fixtureName)
        }

        var arguments: [String] {
            ["--home", library.t.home.path, "play", id, "--device", ALSACapture.pacedDeviceName]
        }

        var environment: [String: String] { library.t.podcli.childEnvironment(capture.environment) }

        /// The environment, with `bus` as the system bus.
        func environment(systemBus bus: MessageBus) -> [String: String] {
            environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { _, new in new }
        }

        func onTerminal(_ extra: [String] = []) throws -> TerminalSession {
            try TerminalSession(
                executable: library.t.podcli.executableURL, arguments: arguments + extra, environment: environment)
        }

        func inBackground(_ extra: [String] = []) throws -> RunningProcess {
            try RunningProcess(
                executable: library.t.podcli.executableURL, arguments: arguments + extra, environment: environment)
        }

        /// The saved position, in seconds.
        func position() throws -> Double { try library.t.show(id)["position"] as! Double }

        /// Seconds of stereo 44.1 kHz audio that reached the device.
        func heardSeconds() throws -> Double { Double(try capture.pacedCaptured().count) / Double(44_100 * 4) }
    }

    static let reference = Result { try PlayCommandTests.reference(PlayCommandTests.stereo) }

    @Test func spacePausesAndResumesWithNoGapAndNoRepeat() throws {
        let player = try Player()
        let started = Date()
        let session = try player.onTerminal()
        #expect(session.waitForOutput(containing: "▶"))
        Thread.sleep(forTimeInterval: 0.8)
        session.type(" ")
        #expect(session.waitForOutput(containing: "⏸"))
        Thread.sleep(forTimeInterval: 1.0)
        session.type(" ")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        // 3 s of audio plus a pause of a second.
        #expect(Date().timeIntervalSince(started) >= 3.8)
        #expect(try player.capture.pacedCaptured() == (try Self.reference.get()))
        #expect(session.isCanonicalWithEcho)
        #expect(try player.library.t.show(player.id)["played"] as? Bool == true)
    }

    /// From 1 s, `,` goes back 5 s (to the start, as far as it goes): the device hears a little
    /// from 1 s on, then the whole episode. (From 1 s, not 2: the key has 2 s to arrive on a
    /// loaded machine before the episode would end.)
    @Test func commaGoesBackAndTheEpisodePlaysOnFromThere() throws {
        let player = try Player()
        let session = try player.onTerminal(["--from", "1"])
        #expect(session.waitForOutput(containing: "▶"))
        Thread.sleep(forTimeInterval: 0.3)
        session.type(",")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        let reference = try Self.reference.get()
        let heard = try player.capture.pacedCaptured()
        let beforeSeek = heard.count - reference.count
        #expect(beforeSeek > 0 && beforeSeek < 2 * 44_100 * 4)
        #expect(heard.prefix(beforeSeek) == reference.dropFirst(44_100 * 4).prefix(beforeSeek))
        #expect(heard.dropFirst(beforeSeek) == reference)
    }

    @Test func qQuitsSavingWhereTheListenerIsAndRestoresTheTerminal() throws {
        let player = try Player()
        let session = try player.onTerminal()
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 1 })
        session.type("q")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        #expect(session.isCanonicalWithEcho)
        // Read once: what the device heard, and the same bytes compared with the episode's start
        // (a length from seconds would round 1 frame short for about 1 count in 11).
        let captured = try player.capture.pacedCaptured()
        let heard = Double(captured.count) / Double(44_100 * 4)
        let position = try player.position()
        #expect(position > 0.5 && position < 3, "heard \(heard) s, saved \(position) s")
        // What reached the device, less what it still held when told to stop.
        #expect(position <= heard && heard - position < 0.5)
        #expect(captured == (try Self.reference.get()).prefix(captured.count))
    }

    /// `n` leaves the first episode (saving its position) for the next in the queue; `m` marks
    /// that one played and goes on, so nothing is left to play.
    @Test func nGoesToTheNextEpisodeAndMMarksOnePlayed() throws {
        let player = try Player()
        let second = try player.library.download(PlayCommandTests.mono)
        #expect(try player.library.t.run(["queue", "add", second]).status == 0)
        let session = try player.onTerminal()
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 0.5 })
        session.type("n")
        #expect(session.waitForOutput(containing: "noise-22k-mono"))
        session.type("m")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        let first = try player.library.t.show(player.id)
        #expect(first["played"] as? Bool == false)
        #expect(first["position"] as! Double > 0.4)
        #expect(try player.library.t.show(second)["played"] as? Bool == true)
        #expect(try player.library.t.run(["queue", "ls"]).stdout == "The queue is empty.\n")
    }

    /// ↓ takes the volume from 100% to 95%: the line says so, and the samples after it are
    /// quieter than the reference (cubic: 0.95³ ≈ 0.857).
    @Test func downArrowLowersTheVolume() throws {
        let player = try Player()
        let session = try player.onTerminal()
        #expect(session.waitForOutput(containing: "vol 100%"))
        session.type("\u{1B}[B")
        #expect(session.waitForOutput(containing: "vol 95%"))
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        let heard = try player.capture.pacedCaptured().withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let reference = try Self.reference.get().withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(heard.count == reference.count)
        let tail = zip(heard.suffix(44_100), reference.suffix(44_100))
        #expect(tail.allSatisfy { abs(Int($0)) <= abs(Int($1)) })
        #expect(tail.contains { $0 != $1 })
    }

    /// Ctrl-Z (SIGTSTP) is an interruption: the player pauses, saves the position, gives the
    /// terminal back as it was and stops; SIGCONT resumes where it was, with no gap or repeat.
    @Test func ctrlZSuspendsAndSIGCONTResumesWithNoGapOrRepeat() throws {
        let player = try Player()
        let started = Date()
        let session = try player.onTerminal()
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 1 })
        session.signal(SIGTSTP)
        #expect(waitUntil(timeout: 5) { Self.isStopped(session.pid) }, "\(session.output)")
        #expect(session.isCanonicalWithEcho)
        let position = try player.position()
        #expect(position > 0.5 && position < 3, "saved \(position) s")
        Thread.sleep(forTimeInterval: 1)
        session.signal(SIGCONT)
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        #expect(Date().timeIntervalSince(started) >= 4)
        #expect(try player.capture.pacedCaptured() == (try Self.reference.get()))
        #expect(session.isCanonicalWithEcho)
        #expect(try player.library.t.show(player.id)["played"] as? Bool == true)
    }

    /// logind announces sleep on the system bus (a private bus here): podcli pauses, saves, and
    /// resumes when logind announces the wake-up, with no gap or repeat.
    @Test(.requires(MessageBus.unavailableReason == nil, "needs dbus-daemon"))
    func systemSleepPausesAndWakingUpResumes() throws {
        let player = try Player()
        let bus = try MessageBus()
        let session = try TerminalSession(
            executable: player.library.t.podcli.executableURL, arguments: player.arguments,
            environment: player.environment(systemBus: bus))
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 1 })
        try bus.prepareForSleep(true)
        #expect(session.waitForOutput(containing: "interrupted (system sleep)"), "\(session.output)")
        let position = try player.position()
        #expect(position > 0.5 && position < 3, "saved \(position) s")
        Thread.sleep(forTimeInterval: 0.5)
        try bus.prepareForSleep(false)
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        #expect(try player.capture.pacedCaptured() == (try Self.reference.get()))
        #expect(try player.library.t.show(player.id)["played"] as? Bool == true)
    }

    /// `podcli status` and the lock-screen buttons (`pause`, `volume`, `seek-to`, `stop`) reach the
    /// player through its control socket and report its true state.
    @Test func statusAndTheButtonsReachTheRunningPlayer() throws {
        let player = try Player()
        let process = try player.inBackground()
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 0.5 })
        func status() throws -> [String: Any] {
            let result = try player.library.t.run(["status", "--json"])
            guard result.status == 0 else { throw TestSupportError("status: \(result)") }
            return try JSONSerialization.jsonObject(with: result.stdoutData) as! [String: Any]
        }
        let playing = try status()
        #expect(playing["state"] as? String == "playing")
        #expect(playing["title"] as? String == "tone-44k-stereo")
        #expect(playing["id"] as? Int == Int(player.id))
        #expect(playing["duration"] as? Double == 3)
        #expect((playing["position"] as? Double ?? -1) > 0.2)

        #expect(try player.library.t.run(["pause"]).status == 0)
        #expect(waitUntil(timeout: 5) { (try? status()["state"] as? String) == "paused" })
        #expect(try player.library.t.run(["volume", "50"]).status == 0)
        #expect(waitUntil(timeout: 5) { (try? status()["volume"] as? Int) == 50 })
        let refused = try player.library.t.run(["volume", "150"])
        #expect(refused.status == 64)
        #expect(refused.stderr == "podcli: volume takes a percentage from 0 to 100\n")
        #expect(try player.library.t.run(["seek-to", "0:00.5"]).status == 0)
        #expect(waitUntil(timeout: 5) { (try? status()["position"] as? Double) == 0.5 })
        let human = try player.library.t.run(["status"])
        #expect(human.stdout == "Paused: #\(player.id) tone-44k-stereo\n0:00 / 0:03, volume 50%\n")

        #expect(try player.library.t.run(["stop"]).status == 0)
        #expect(try process.waitUntilExit().status == 0)
        #expect(try player.position() == 0.5)
        let nothing = try player.library.t.run(["status"])
        #expect(nothing.status == 66)
        #expect(nothing.stderr == "podcli: nothing is playing (start a player with 'podcli play')\n")
    }

    /// What the now-playing line says about an interruption, `status` says too.
    @Test(.requires(MessageBus.unavailableReason == nil, "needs dbus-daemon"))
    func statusSaysWhyThePlayerIsInterrupted() throws {
        let player = try Player()
        let bus = try MessageBus()
        let process = try RunningProcess(
            executable: player.library.t.podcli.executableURL, arguments: player.arguments,
            environment: player.environment(systemBus: bus))
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 0.5 })
        try bus.prepareForSleep(true)
        #expect(
            waitUntil(timeout: 5) {
                (try? player.library.t.run(["status"]).stdout.hasPrefix("Interrupted (system sleep): #")) == true
            })
        try bus.prepareForSleep(false)
        #expect(try process.waitUntilExit().status == 0)
    }

    /// `play --background` returns at once and plays on with no terminal; `attach` on a pty shows
    /// its line and takes its keys; `q` detaches and the player goes on until `stop`. (84 s of
    /// speech from the corpus, so that it is still playing whatever the machine's load.)
    @Test(.requires(FileManager.default.fileExists(atPath: speech), "the corpus is not present"))
    func aBackgroundPlayerPlaysOnAndAttachDrivesIt() throws {
        let player = try Player()
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.speech))
        let fetch = try player.library.t.run([
            "fetch", try player.library.t.source("speech.mp3", data: data).url, "--json",
        ])
        let id = "\((try JSONSerialization.jsonObject(with: fetch.stdoutData) as! [String: Any])["id"] as! Int)"
        let started = try player.library.t.run(
            ["play", id, "--device", ALSACapture.pacedDeviceName, "--background"],
            environment: player.capture.environment)
        #expect(started.status == 0, "\(started)")
        #expect(started.stdout.hasPrefix("Playing in the background ("))
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 0.5 })
        #expect(try player.library.t.run(["pause"]).status == 0)

        let attach = try TerminalSession(
            executable: player.library.t.podcli.executableURL,
            arguments: ["--home", player.library.t.home.path, "attach"], environment: player.environment)
        #expect(attach.waitForOutput(containing: "⏸ speech"), "\(attach.output)")
        attach.type(" ")
        #expect(attach.waitForOutput(containing: "▶ speech"), "\(attach.output)")
        attach.type("q")
        #expect(try attach.waitUntilExit() == 0)
        #expect(attach.isCanonicalWithEcho)
        // Detached, not stopped: the player still answers.
        #expect(try player.library.t.run(["status"]).stdout.hasPrefix("Playing: #\(id) speech"))
        #expect(try player.library.t.run(["stop"]).status == 0)
        #expect(waitUntil(timeout: 5) { (try? player.library.t.run(["status"]).status) == 66 })
        #expect(try player.library.t.show(id)["position"] as! Double > 0.3)
    }

    static let playerctlPresent = FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl")

    /// MPRIS on a private session bus, driven by the real `playerctl`: what it reports is the
    /// player's true state (checked against `podcli status`), and what it asks is done.
    @Test(.requires(MessageBus.unavailableReason == nil && playerctlPresent, "needs dbus-daemon and playerctl"))
    func playerctlSeesAndDrivesThePlayer() throws {
        let player = try Player()
        let bus = try MessageBus()
        let environment = player.environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { _, new in new }
        let process = try RunningProcess(
            executable: player.library.t.podcli.executableURL, arguments: player.arguments, environment: environment)
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 0.5 })
        func playerctl(_ arguments: [String]) throws -> String {
            try RunningProcess(
                executable: URL(fileURLWithPath: "/usr/bin/playerctl"), arguments: ["-p", "podcli"] + arguments,
                environment: environment
            ).waitUntilExit().stdout
        }
        func status() throws -> [String: Any] {
            let result = try player.library.t.run(["status", "--json"])
            return try JSONSerialization.jsonObject(with: result.stdoutData) as! [String: Any]
        }
        let follow = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/playerctl"), arguments: ["-p", "podcli", "--follow", "status"],
            environment: environment)

        #expect(try playerctl(["status"]) == "Playing\n")
        #expect(try playerctl(["metadata", "title"]) == "tone-44k-stereo\n")
        #expect(try playerctl(["metadata", "mpris:length"]) == "3000000\n")
        #expect(try playerctl(["metadata", "mpris:trackid"]).contains("/org/podcli/episode/\(player.id)"))
        #expect(try playerctl(["metadata", "xesam:url"]).hasSuffix("/tone-44k-stereo.mp3\n"))

        _ = try playerctl(["play-pause"])
        #expect(waitUntil(timeout: 5) { (try? status()["state"] as? String) == "paused" })
        #expect(try playerctl(["status"]) == "Paused\n")
        _ = try playerctl(["position", "1"])
        #expect(waitUntil(timeout: 5) { (try? status()["position"] as? Double) == 1 })
        #expect(try playerctl(["position"]).hasPrefix("1.0"))
        _ = try playerctl(["volume", "0.5"])
        #expect(waitUntil(timeout: 5) { (try? status()["volume"] as? Int) == 50 })
        _ = try playerctl(["play"])
        #expect(waitUntil(timeout: 5) { (try? status()["state"] as? String) == "playing" })

        // Stop ends the session, the position saved.
        _ = try playerctl(["stop"])
        #expect(try process.waitUntilExit().status == 0)
        #expect(try player.position() >= 1)
        follow.kill(signal: SIGTERM)
        // PropertiesChanged reached a listener: it saw each change of PlaybackStatus.
        #expect(try follow.waitUntilExit().stdout.hasPrefix("Playing\nPaused\nPlaying\n"))
    }

    /// The key reader sleeps until a key comes: while paused with nothing typed, its thread is
    /// not woken (a reader that looked every 250 ms would wake four times a second).
    @Test func theKeyReaderSleepsUntilAKeyComes() throws {
        let player = try Player()
        let session = try player.onTerminal()
        #expect(session.waitForOutput(containing: "▶"))
        session.type(" ")
        #expect(session.waitForOutput(containing: "⏸"))
        let task = try #require(Self.task(named: "podcli.keys", of: session.pid), "no key reader thread")
        Thread.sleep(forTimeInterval: 0.3)
        let before = try #require(Self.wakeups(task))
        Thread.sleep(forTimeInterval: 2)
        let woken = try #require(Self.wakeups(task)) - before
        #expect(woken <= 2, "the key reader woke \(woken) times in 2 s with no key")
        session.type("q")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
    }

    /// The /proc directory of the thread of `pid` named `name`.
    static func task(named name: String, of pid: Int32) -> String? {
        let tasks = "/proc/\(pid)/task"
        return (try? FileManager.default.contentsOfDirectory(atPath: tasks))?.map { "\(tasks)/\($0)" }.first {
            (try? String(contentsOfFile: "\($0)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) == name
        }
    }

    /// How often the kernel has put the thread at `task` to sleep and woken it, so far.
    static func wakeups(_ task: String) -> Int? {
        guard let status = try? String(contentsOfFile: "\(task)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") })
        else { return nil }
        return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
    }

    /// Whether the process is stopped (state T in /proc/PID/stat).
    static func isStopped(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(end, offsetBy: 2)] == "T"
    }

    /// The sound server dies while playing (ALSA's pulse plugin then fails with -EIO), or while
    /// paused (found out on resuming): podcli pauses (device lost) at the frame being heard and
    /// waits. A new server takes the device's name; space resumes there, from that frame: the
    /// rest is heard, only what the dead server had not played is heard twice.
    @Test(arguments: [false, true])
    func aDeviceThatGoesAwayPausesAndSpaceResumesOnTheNewOne(whilePaused: Bool) throws {
        let player = try Player()
        // A device whose server is found through a symbolic link, so "the default" can move.
        let link = player.directory.appending("server").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: player.pulse.socketPath)
        let config = try String(contentsOf: player.capture.configURL, encoding: .utf8)
        let moving = player.directory.appending("moving.raw").path
        try
            (config + """
                pcm.podcli_moving {
                    type file
                    slave { pcm { type pulse; server "unix:\(link)" } }
                    file "\(moving)"
                    format "raw"
                    perm 0644
                    truncate false
                }

                """).write(to: player.capture.configURL, atomically: true, encoding: .utf8)
        let session = try TerminalSession(
            executable: player.library.t.podcli.executableURL,
            arguments: ["--home", player.library.t.home.path, "play", player.id, "--device", "podcli_moving"],
            environment: player.environment)
        #expect(waitUntil(timeout: 10) { FileManager.default.fileSize(atPath: moving) > 44_100 * 4 })
        if whilePaused {
            session.type(" ")
            #expect(session.waitForOutput(containing: "⏸"))
        }
        player.pulse.stop()
        if whilePaused { session.type(" ") }
        #expect(session.waitForOutput(containing: "paused (device lost)"), "\(session.output)")
        let saved = try player.position()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!session.output.contains("Played"))

        let newServer = try PulseAudioServer()
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: newServer.socketPath)
        session.type(" ")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        let reference = try Self.reference.get()
        let first = try Data(contentsOf: URL(fileURLWithPath: moving))
        let second = try Data(contentsOf: URL(fileURLWithPath: moving + ".0001"))
        let resumedAt = (reference.count - second.count) / 4
        #expect(reference.prefix(first.count) == first)
        #expect(reference.suffix(second.count) == second)
        // No gap; a repeat of at most what the dead server held (its buffer and ALSA's, < 0.5 s).
        #expect(
            resumedAt <= first.count / 4 && first.count / 4 - resumedAt < 22_050, "\(resumedAt), \(first.count / 4)")
        #expect(abs(saved - Double(resumedAt) / 44_100) < 0.01, "saved \(saved) s, resumed at \(resumedAt)")
        #expect(try player.library.t.show(player.id)["played"] as? Bool == true)
    }

    /// `podcli play | head -1`: the reader of stdout goes away; the next line podcli writes (here
    /// for a pause) finds the pipe closed, and podcli stops as for `q`: position saved, terminal
    /// given back.
    @Test func aClosedStdoutStopsPlayingAsQuitDoes() throws {
        let player = try Player()
        let command = ([player.library.t.podcli.executableURL.path] + player.arguments).map { "'\($0)'" }
            .joined(separator: " ")
        let session = try TerminalSession(
            executable: URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", command + " | head -1"],
            environment: player.environment)
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 1 })
        session.type(" ")
        #expect(try session.waitUntilExit() == 0, "\(session.output)")
        #expect(session.isCanonicalWithEcho)
        let position = try player.position()
        #expect(position > 0.5 && position < 3, "saved \(position) s")
        #expect(try player.library.t.show(player.id)["played"] as? Bool == false)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalSavesThePositionAndExitsWithItsCode(signal: Int32) throws {
        let player = try Player()
        let process = try player.inBackground()
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 1 })
        process.kill(signal: signal)
        let result = try process.waitUntilExit()
        #expect(result.status == 128 + signal, "\(result)")
        #expect(result.stdout.hasSuffix(" of 0:03\n"))
        #expect(result.stdout.contains("Stopped at 0:0"))
        let position = try player.position()
        #expect(try position > 0.5 && position <= player.heardSeconds())
        #expect(try player.library.t.show(player.id)["played"] as? Bool == false)
    }

    static let speech = PlayCommandTests.corpusSpeech

    /// The disk fills while `play` runs: when it stops, the position cannot be saved, and podcli
    /// says so in one line and exits 74, rather than "Stopped at" alone and 0 (the next play would
    /// start over without a word).
    @Test(.requires(SmallDisk.isAvailable, "needs root to mount a tmpfs"), arguments: ["stop", "SIGTERM"])
    func aPositionTheFullDiskCannotTakeIsReportedWhenPlayStops(stop: String) throws {
        let player = try Player(diskKibibytes: 2048)
        let disk = try #require(player.disk)
        let process = try player.inBackground()
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > 0.5 })
        // The disk fills while paused, after the pause's save, when nothing is saved: a save the
        // filling cut short would leave the database's log grown into the last free blocks, where
        // a later save could fit.
        #expect(try player.library.t.run(["pause"]).status == 0)
        #expect(
            waitUntil(timeout: 10) {
                guard let result = try? player.library.t.run(["status", "--json"]), result.status == 0,
                    let status = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
                    status["state"] as? String == "paused", let playing = status["position"] as? Double,
                    let saved = try? player.position()
                else { return false }
                return abs(playing - saved) < 0.002
            })
        try disk.fill(leaving: 0)
        let heard = try player.heardSeconds()
        #expect(try player.library.t.run(["resume"]).status == 0)
        #expect(waitUntil(timeout: 10) { (try? player.heardSeconds()) ?? 0 > heard + 0.6 })
        if stop == "stop" {
            #expect(try player.library.t.run(["stop"]).status == 0)
        } else {
            process.kill(signal: SIGTERM)
        }
        let result = try process.waitUntilExit()
        disk.empty()
        #expect(result.status == 74, "\(result)")
        #expect(result.stdout.contains("Stopped at 0:0"), "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result)")
        #expect(
            lines.first?.hasPrefix("podcli: the position of #\(player.id) tone-44k-stereo (0:0") == true,
            "\(result)")
        let reason = "could not be saved: no space left on the disk holding \(player.library.t.home.path)"
        #expect(lines.first?.contains(reason) == true, "\(result)")
    }

    /// `kill -9` gives podcli no chance to save: what it saved as it played must be within 1 s of
    /// what the sink had played (from the first sound on the sink's monitor to the kill, by the
    /// wall clock). Killed at moments spread over the saving period, each play resuming where the
    /// last was saved.
    @Test(.requires(AudioFixtures.unavailableReason == nil, "needs ffmpeg"))
    func killNineLosesAtMostOneSecondOfWhatWasHeard() throws {
        let library = try PlayCommandTests.Library()
        let chirp = try Data(contentsOf: AudioFixtures.shared.url(.flac))
        #expect(try library.t.run(["fetch", try library.t.source("chirp.flac", data: chirp).url]).status == 0)
        let directory = try TemporaryDirectory(prefix: "podcli-paced")
        let pulse = try PulseAudioServer()
        let capture = try ALSACapture(directory: directory, pulseAudio: pulse)
        var start = 0.0
        // 0, 0.1, 0.2 and 0.3 s into the half-second saving period (0.6 s apart), plus whatever the
        // start varies by.
        for seconds in [1.0, 1.6, 2.2, 2.8] {
            let monitor = try SinkMonitor(pulse)
            defer { monitor.stop() }
            let process = try RunningProcess(
                executable: library.t.podcli.executableURL,
                arguments: ["--home", library.t.home.path, "play", "1", "--device", ALSACapture.pacedDeviceName],
                environment: library.t.podcli.childEnvironment(capture.environment))
            #expect(waitUntil(timeout: 20, interval: 0.005) { monitor.secondsOfSound() >= seconds })
            process.kill(signal: SIGKILL)
            let heard = start + monitor.secondsOfSound()
            _ = try process.waitUntilExit()
            let saved = try library.t.show("1")["position"] as! Double
            #expect(saved > start && saved <= heard + 0.1, "heard to \(heard) s, saved \(saved) s")
            #expect(heard - saved <= 1, "heard to \(heard) s, saved \(saved) s")
            start = saved
        }
    }
}

extension FileManager {
    fileprivate func fileSize(atPath path: String) -> Int {
        ((try? attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
