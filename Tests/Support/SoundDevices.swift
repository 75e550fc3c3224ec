import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Sound devices for tests on a machine without a sound card (see
// /work/shared/notes/platform-findings.md, section 2):
//
// - `ALSACapture` writes a private ~/.asoundrc whose devices record, byte for byte, what a
//   player sends to ALSA: `podcli_capture` (ALSA `file` plugin in front of `null`: consumed
//   at once) and, given a `PulseAudioServer`, `podcli_paced_capture` (`file` in front of
//   `pulse`: consumed in real time by a PulseAudio null sink).
// - `PulseAudioServer` runs a private PulseAudio daemon with one null sink.
//
// A child process sees these devices when it runs with `ALSACapture.environment` (HOME
// pointing at the directory holding the .asoundrc, and PULSE_SERVER).

/// A private ALSA configuration whose devices write what they play to files.
///
/// Layout under `directory`:
///
///     home/.asoundrc     the configuration (the child's HOME is `home`)
///     capture.raw        what `podcli_capture` received (raw: no header, the player's format)
///     paced.raw          what `podcli_paced_capture` received (only with a PulseAudio server)
///
/// How the ALSA `file` plugin behaves (alsa-lib 1.2.8, checked on this machine):
/// - The file is created when the player sets the hardware parameters, mode 0644.
/// - `truncate false`: opening the device again does **not** append. The plugin opens the
///   name with `O_EXCL` and, when it exists, moves on to `capture.raw.0001`, `.0002`, ...
///   (one file per open; players that probe the device first, like mpg123, leave an empty
///   one). `captured()` therefore returns all the files of the device, concatenated in the
///   order they were created: for a player that closes and reopens the device (after a pause
///   with `snd_pcm_drop`, after the device was lost) that is everything it played, in order.
/// - The plugin writes a frame to the file only once the player has written one more ALSA
///   buffer after it (the size the player chose, e.g. 0.5 s), and the rest on drain, drop or
///   close. Read the capture after the player closed the device; while it plays, the file
///   lags behind by one buffer.
public final class ALSACapture: Sendable {
    /// The device that writes to `captureURL` and discards at once (`null`: no pacing).
    public static let deviceName = "podcli_capture"
    /// The device that writes to `pacedCaptureURL` and plays into the PulseAudio null sink
    /// (real-time pacing). Defined only with a `PulseAudioServer`.
    public static let pacedDeviceName = "podcli_paced_capture"

    public let directory: URL
    /// The child's HOME, holding `.asoundrc`.
    public let home: URL
    public let configURL: URL
    public let captureURL: URL
    /// nil without a PulseAudio server.
    public let pacedCaptureURL: URL?
    /// Kept alive as long as this capture, so its device keeps working.
    public let pulseAudio: PulseAudioServer?

    /// The variables a child needs to see these devices: `HOME` (and `XDG_CONFIG_HOME`
    /// inside it, so no other user ALSA configuration is read) and, with a PulseAudio
    /// server, its `PULSE_SERVER` and client configuration (so the plain `pulse` and
    /// `default` devices reach it too). Merge it over the child's environment.
    public let environment: [String: String]

    /// Writes the configuration under `directory` (created if missing).
    /// - Parameters:
    ///   - pulseAudio: a running server; when given, `podcli_paced_capture` is defined too.
    ///   - routeDefault: also make ALSA's `default` device `podcli_capture` (with a server,
    ///     libasound2-plugins would otherwise route `default` to PulseAudio).
    public init(directory: URL, pulseAudio: PulseAudioServer? = nil, routeDefault: Bool = false) throws {
        let fm = FileManager.default
        self.directory = directory
        home = directory.appendingPathComponent("home", isDirectory: true)
        configURL = home.appendingPathComponent(".asoundrc")
        captureURL = directory.appendingPathComponent("capture.raw")
        pacedCaptureURL = pulseAudio.map { _ in directory.appendingPathComponent("paced.raw") }
        self.pulseAudio = pulseAudio
        try fm.createDirectory(at: home, withIntermediateDirectories: true)

        var config = """
            # Written by TestSupport.ALSACapture (Tests/Support/SoundDevices.swift).
            # truncate false: a second open writes FILE.0001, FILE.0002, ... (O_EXCL), never over FILE.
            pcm.\(Self.deviceName) {
                type file
                slave { pcm "null" }
                file \(Self.quoted(captureURL.path))
                format "raw"
                perm 0644
                truncate false
            }

            """
        if let pulseAudio, let pacedCaptureURL {
            // The server is named in the slave itself, so the device works even without
            // PULSE_SERVER in the child's environment.
            config += """
                pcm.\(Self.pacedDeviceName) {
                    type file
                    slave {
                        pcm {
                            type pulse
                            server \(Self.quoted(pulseAudio.serverAddress))
                            device \(Self.quoted(pulseAudio.sinkName))
                        }
                    }
                    file \(Self.quoted(pacedCaptureURL.path))
                    format "raw"
                    perm 0644
                    truncate false
                }

                """
        }
        if routeDefault {
            config += """
                pcm.!default \(Self.deviceName)

                """
        }
        try Data(config.utf8).write(to: configURL)

        var env = [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
        ]
        if let pulseAudio { env.merge(pulseAudio.environment) { _, new in new } }
        environment = env
    }

    /// Writes the configuration into `directory` (keep the `TemporaryDirectory` alive).
    public convenience init(
        directory: TemporaryDirectory, pulseAudio: PulseAudioServer? = nil, routeDefault: Bool = false
    ) throws {
        try self.init(directory: directory.url, pulseAudio: pulseAudio, routeDefault: routeDefault)
    }

    /// Everything `podcli_capture` received, all opens concatenated in order.
    public func captured() throws -> Data {
        try Self.concatenate(Self.segments(of: captureURL))
    }

    /// Everything `podcli_paced_capture` received, all opens concatenated in order.
    public func pacedCaptured() throws -> Data {
        guard let pacedCaptureURL else {
            throw TestSupportError("ALSACapture has no paced device: it was made without a PulseAudioServer")
        }
        return try Self.concatenate(Self.segments(of: pacedCaptureURL))
    }

    /// The files `podcli_capture` wrote, one per open of the device, in order.
    public func captureFiles() -> [URL] { Self.segments(of: captureURL) }

    /// The files `podcli_paced_capture` wrote, one per open of the device, in order.
    public func pacedCaptureFiles() -> [URL] { pacedCaptureURL.map(Self.segments(of:)) ?? [] }

    /// The bytes written so far to the files of `podcli_capture` (cheap: for polling).
    public var capturedByteCount: Int { Self.byteCount(captureFiles()) }

    /// The bytes written so far to the files of `podcli_paced_capture`.
    public var pacedCapturedByteCount: Int { Self.byteCount(pacedCaptureFiles()) }

    /// Deletes what both devices captured so far (while no player has them open).
    public func removeCaptures() throws {
        for file in captureFiles() + pacedCaptureFiles() {
            try FileManager.default.removeItem(at: file)
        }
    }

    // MARK: - Helpers

    /// `base`, then `base.0001`, `base.0002`, ... as long as they exist (the plugin takes the
    /// first free number, so there are no gaps unless files were deleted by hand).
    static func segments(of base: URL) -> [URL] {
        let fm = FileManager.default
        var files: [URL] = []
        if fm.fileExists(atPath: base.path) { files.append(base) }
        var index = 1
        while index < 10_000 {
            let next = URL(fileURLWithPath: base.path + String(format: ".%04d", index))
            guard fm.fileExists(atPath: next.path) else { break }
            files.append(next)
            index += 1
        }
        return files
    }

    static func concatenate(_ files: [URL]) throws -> Data {
        var data = Data()
        for file in files { data.append(try Data(contentsOf: file)) }
        return data
    }

    static func byteCount(_ files: [URL]) -> Int {
        files.reduce(0) { sum, file in
            var st = stat()
            return sum + (stat(file.path, &st) == 0 ? Int(st.st_size) : 0)
        }
    }

    /// A string in ALSA configuration syntax.
    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// A private PulseAudio daemon with one null sink (a clocked sink that discards what it
/// plays, in real time), reachable on its own UNIX socket.
///
/// Nothing outside its directory is read or written: no default.pa (`-n`), a `daemon.conf`
/// of its own (`PULSE_CONFIG`), its own runtime and state directories and HOME, no PID file,
/// no D-Bus (the daemon's environment has no `DBUS_SESSION_BUS_ADDRESS` and no `DISPLAY`: with
/// a session bus, a second daemon on the same bus exits at once, "D-Bus name
/// org.PulseAudio1 already taken"), no real-time or nice-level changes. So any number of
/// servers can run side by side, from parallel test processes too. Works as root (it logs
/// "This program is not intended to be run as root", and runs).
///
/// The daemon runs under a small `sh` guard that holds a pipe from this process: when this
/// process exits, even by a crash, the pipe closes and the guard stops the daemon and removes
/// its directory (a server held in a static is never deinitialized). `stop()` (also run on
/// deinit) stops the daemon at once and keeps the directory (and the log) until deinit.
///
/// Start-up takes about 30 ms on this machine (`pactl info` answers).
///
/// A quirk of PulseAudio 16's null sink: while no stream plays, it renders in 2 s blocks, and
/// a new stream waits for the current block to end: the first sample of a stream reaches the
/// sink 0.2-1.2 s after the player starts, at random. A silent stream kept playing at low
/// latency (`pacat --latency-msec=20 /dev/zero`, see bench/playback.sh) keeps the blocks
/// short (a stream then starts within ~10 ms), once it has run for about 2 s.
public final class PulseAudioServer: Sendable {
    /// The directory holding the socket, the log and the daemon's private state.
    public let directory: URL
    public let socketPath: String
    /// "unix:" + `socketPath`: the value for PULSE_SERVER, or the `server` of an ALSA pulse PCM.
    public var serverAddress: String { "unix:" + socketPath }
    /// The null sink (the server's default sink).
    public let sinkName: String
    /// Its monitor source: `parec -d <monitor>` records what the sink plays.
    public var monitorSourceName: String { sinkName + ".monitor" }
    public let sampleRate: Int
    public let channels: Int
    /// The daemon's log (`--log-target=file:`).
    public let logURL: URL
    /// The pulseaudio process.
    public let pid: Int32

    /// What a client needs to reach this server: `PULSE_SERVER`, and `PULSE_CLIENTCONFIG`
    /// naming a client.conf with `autospawn = no` (a client never starts a daemon of its own
    /// from the system configuration, even when this server is gone).
    public let environment: [String: String]

    private let ownedDirectory: TemporaryDirectory
    private let guardProcess: RunningProcess
    private let stopped = Mutex(false)

    /// Why a server cannot be started here (a tool missing), or nil when it can.
    /// For `@Test(.enabled(if: PulseAudioServer.unavailableReason == nil))`.
    public static var unavailableReason: String? { unavailableReason(searchPath: nil) }

    /// `unavailableReason` for the tools found in `searchPath` (default: $PATH).
    public static func unavailableReason(searchPath: String?) -> String? {
        var missing: [String] = []
        if findExecutable("pulseaudio", searchPath: searchPath) == nil {
            missing.append("pulseaudio (package pulseaudio)")
        }
        if findExecutable("pactl", searchPath: searchPath) == nil { missing.append("pactl (package pulseaudio-utils)") }
        guard !missing.isEmpty else { return nil }
        return """
            PulseAudio is not installed: missing \(missing.joined(separator: ", ")). Install it with \
            scripts/install-deps.sh, or: apt-get install --no-install-recommends pulseaudio \
            pulseaudio-utils libasound2-plugins
            """
    }

    /// Whether the ALSA `pulse` plugin (libasound2-plugins) is installed: needed by the ALSA
    /// devices that play into the server, not by the server itself.
    public static var alsaPluginInstalled: Bool {
        [
            "/usr/lib/x86_64-linux-gnu/alsa-lib", "/usr/lib/aarch64-linux-gnu/alsa-lib", "/usr/lib/alsa-lib",
            "/usr/lib64/alsa-lib",
        ].contains {
            FileManager.default.fileExists(atPath: $0 + "/libasound_module_pcm_pulse.so")
        }
    }

    /// Starts the daemon and waits until it answers `pactl info`.
    /// - Parameters:
    ///   - sinkName: the null sink's name (also the default sink).
    ///   - sampleRate, channels: the sink's format (streams of another format are resampled).
    ///   - startupTimeout: how long to wait for the daemon to answer before throwing.
    public init(
        sinkName: String = "podcli_null", sampleRate: Int = 44_100, channels: Int = 2,
        startupTimeout: TimeInterval = 10
    ) throws {
        if let reason = Self.unavailableReason { throw TestSupportError(reason) }
        let pulseaudio = Self.findExecutable("pulseaudio", searchPath: nil)!
        let pactl = Self.findExecutable("pactl", searchPath: nil)!

        // A UNIX socket path has room for 107 bytes.
        let dir = try TemporaryDirectory(prefix: "podcli-pulse")
        guard dir.path.utf8.count <= 90 else {
            throw TestSupportError(
                "\(dir.path) is too long for a UNIX socket path: set TMPDIR to a shorter directory")
        }
        ownedDirectory = dir
        directory = dir.url
        let fm = FileManager.default
        let runtime = dir.appending("runtime")
        for sub in ["runtime", "state", "home", "config"] {
            try fm.createDirectory(at: dir.appending(sub), withIntermediateDirectories: true)
        }
        // PulseAudio insists on a private runtime directory.
        _ = chmod(runtime.path, 0o700)
        let daemonConf = try dir.write("# private daemon.conf: nothing from /etc/pulse\n", to: "daemon.conf")
        let clientConf = try dir.write("autospawn = no\n", to: "client.conf")

        self.sinkName = sinkName
        self.sampleRate = sampleRate
        self.channels = channels
        socketPath = dir.appending("native").path
        logURL = dir.appending("pulseaudio.log")
        environment = ["PULSE_SERVER": "unix:" + socketPath, "PULSE_CLIENTCONFIG": clientConf.path]

        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("PULSE_") || key.hasPrefix("DBUS_") || key.hasPrefix("XDG_") {
            env.removeValue(forKey: key)
        }
        for key in ["DISPLAY", "WAYLAND_DISPLAY"] { env.removeValue(forKey: key) }
        env["HOME"] = dir.appending("home").path
        env["XDG_RUNTIME_DIR"] = runtime.path
        env["XDG_CONFIG_HOME"] = dir.appending("config").path
        env["XDG_STATE_HOME"] = dir.appending("state").path
        env["PULSE_RUNTIME_PATH"] = runtime.path
        env["PULSE_STATE_PATH"] = dir.appending("state").path
        env["PULSE_CONFIG"] = daemonConf.path
        env["PULSE_CLIENTCONFIG"] = clientConf.path

        let daemonArguments = [
            pulseaudio.path, "-n", "--daemonize=no", "--system=no", "--exit-idle-time=-1",
            "--use-pid-file=no", "--high-priority=no", "--realtime=no", "--disallow-exit=yes",
            "--log-target=file:\(logURL.path)", "--log-level=info", "--log-time=yes",
            "-L", "module-null-sink sink_name=\(sinkName) rate=\(sampleRate) channels=\(channels)",
            "-L", "module-native-protocol-unix socket=\(socketPath) auth-anonymous=1",
        ]
        // The guard: starts the daemon, prints its PID and waits on its stdin (our pipe) for
        // "stop" (from stop()) or the end of file (this process died, or never deinitialized
        // the server, e.g. a static one); then stops the daemon (TERM, then KILL after 2 s).
        // At the end of file it also removes the directory, which no deinit will remove
        // (unless KEEP_TEST_FILES is set).
        let script = """
            "$@" </dev/null >/dev/null 2>>"$PODCLI_PULSE_LOG" &
            pid=$!
            echo "PID $pid"
            command=
            while IFS= read -r command; do [ "$command" = stop ] && break; done
            kill -TERM "$pid" 2>/dev/null
            i=0
            while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 40 ]; do
                case "$(cut -d' ' -f3 /proc/$pid/stat 2>/dev/null)" in Z|X|'') break ;; esac
                sleep 0.05; i=$((i + 1))
            done
            kill -KILL "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
            if [ "$command" != stop ] && [ -z "$KEEP_TEST_FILES" ]; then rm -rf "$PODCLI_PULSE_DIR"; fi
            exit 0
            """
        env["PODCLI_PULSE_LOG"] = logURL.path
        env["PODCLI_PULSE_DIR"] = dir.path
        let guardProcess = try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "podcli-pulse-guard"] + daemonArguments,
            environment: env, keepStdinOpen: true)
        self.guardProcess = guardProcess

        var pid: Int32?
        // The outcome is `pid`, checked below.
        _ = waitUntil(timeout: 5, interval: 0.005) {
            if let line = guardProcess.currentStdout.split(separator: "\n").first,
                line.hasPrefix("PID "), let n = Int32(line.dropFirst(4))
            {
                pid = n
                return true
            }
            return !guardProcess.isRunning
        }
        guard let pid else {
            guardProcess.closeStdin()
            let result = try? guardProcess.waitUntilExit(timeout: 5)
            throw TestSupportError("could not start pulseaudio: \(result.map { "\($0)" } ?? "no output")")
        }
        self.pid = pid

        var clientEnv = env
        clientEnv.merge(environment) { _, new in new }
        var lastAnswer = ""
        let ready = waitUntil(timeout: startupTimeout, interval: 0.01) {
            guard Self.isAlive(pid) else { return true }
            guard
                let result = try? RunningProcess(
                    executable: pactl, arguments: ["info"], environment: clientEnv
                ).waitUntilExit(timeout: 5)
            else { return false }
            lastAnswer = result.stdout + result.stderr
            return result.succeeded && result.stdout.contains("Default Sink: \(sinkName)")
        }
        if !ready || !Self.isAlive(pid) {
            let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? "(no log)"
            let why = Self.isAlive(pid) ? "did not answer within \(startupTimeout) s" : "exited"
            guardProcess.closeStdin()
            _ = try? guardProcess.waitUntilExit(timeout: 5)
            throw TestSupportError(
                "pulseaudio \(why) (socket \(socketPath)); last pactl info: \(lastAnswer)\n--- \(logURL.path) ---\n\(log)"
            )
        }
    }

    /// Whether the daemon is still running.
    public var isRunning: Bool { Self.isAlive(pid) }

    /// What the daemon logged so far.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Runs `pactl ARGS` against this server (e.g. `["list", "sink-inputs"]`).
    public func pactl(_ arguments: [String], timeout: TimeInterval = 10) throws -> ProcessResult {
        guard let pactl = Self.findExecutable("pactl", searchPath: nil) else {
            throw TestSupportError("pactl is not installed (package pulseaudio-utils)")
        }
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = directory.appendingPathComponent("home").path
        env.merge(environment) { _, new in new }
        return try RunningProcess(executable: pactl, arguments: arguments, environment: env)
            .waitUntilExit(timeout: timeout)
    }

    /// Stops the daemon (SIGTERM, SIGKILL after 2 s) and waits for it. Idempotent.
    public func stop() {
        let already = stopped.withLock { value -> Bool in
            defer { value = true }
            return value
        }
        if already { return }
        // "stop": keep the directory. Should the guard be gone already, the write fails with
        // EPIPE instead of killing this process with SIGPIPE (blocked here, then discarded).
        var pipeSignal = sigset_t()
        var saved = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &saved)
        try? guardProcess.writeStdin(Data("stop\n".utf8))
        var noWait = timespec(tv_sec: 0, tv_nsec: 0)
        while sigtimedwait(&pipeSignal, nil, &noWait) == SIGPIPE {}
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        guardProcess.closeStdin()
        if !waitUntil(timeout: 5, { !guardProcess.isRunning }) {
            _ = kill(pid, SIGKILL)
            guardProcess.kill(signal: SIGKILL)
        }
        _ = try? guardProcess.waitUntilExit(timeout: 5)
    }

    deinit { stop() }

    // MARK: - Helpers

    /// Alive and not a zombie (the guard reaps the daemon only after its stdin ends).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].drop(while: { $0 == " " }).first
        return state != nil && state != "Z" && state != "X"
    }

    static func findExecutable(_ name: String, searchPath: String?) -> URL? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return URL(fileURLWithPath: candidate)
            }
        }
        return nil
    }
}

/// What a `PulseAudioServer`'s sink plays, as a listener would hear it: `parec` on its monitor
/// (10 ms latency, as bench/playback_probe.py records it), noting when the first sound (a
/// non-zero sample) arrived, and the silences between sounds. Start it before the player, so
/// that sample is seen as it comes.
public final class SinkMonitor: Sendable {
    private let process: Process
    private let firstSoundAt: FirstSound
    private let silences: Silences
    private let finished = Latch()

    /// The silences recorded between sounds (runs of zero bytes: a sample of sound has a zero
    /// byte or two at most), counted in bytes of the stream.
    private final class Silences: Sendable {
        private struct State {
            var total = 0
            var firstSound: Int?
            var lastSound: Int?
            var longestGap = 0
        }
        private let state = Mutex(State())

        func read(_ bytes: ArraySlice<UInt8>) {
            state.withLock { state in
                for (index, byte) in zip(state.total..., bytes) where byte != 0 {
                    if let last = state.lastSound { state.longestGap = max(state.longestGap, index - last - 1) }
                    if state.firstSound == nil { state.firstSound = index }
                    state.lastSound = index
                }
                state.total += bytes.count
            }
        }

        /// The longest gap, the span from the first sound to the last, and the silence since.
        var bytes: (longestGap: Int, sound: Int, silenceSince: Int) {
            state.withLock { state in
                guard let first = state.firstSound, let last = state.lastSound else { return (0, 0, state.total) }
                return (state.longestGap, last + 1 - first, state.total - last - 1)
            }
        }
    }

    /// Shared with the reading thread: when the first sound reached the sink, counted in bytes of
    /// the stream rather than by when a read saw it, so a reading thread the scheduler let wait
    /// does not move it later. The stream is real time: a read at `now` that has brought `total`
    /// bytes says the stream began no later than `now - total / rate`; the earliest such bound is
    /// the one a read woken on time gave.
    private final class FirstSound: Sendable {
        private struct State {
            var streamStart: ContinuousClock.Instant?
            var soundOffset: Int?
        }
        private let state = Mutex(State())
        let bytesPerSecond: Double

        init(bytesPerSecond: Int) { self.bytesPerSecond = Double(bytesPerSecond) }

        /// A read at `now` after which `total` bytes have arrived, the first non-zero byte of all
        /// at `soundOffset` if there was one.
        func read(at now: ContinuousClock.Instant, total: Int, soundOffset: Int?) {
            let start = now - .seconds(Double(total) / bytesPerSecond)
            state.withLock {
                if $0.streamStart.map({ start < $0 }) ?? true { $0.streamStart = start }
                if $0.soundOffset == nil { $0.soundOffset = soundOffset }
            }
        }

        var instant: ContinuousClock.Instant? {
            state.withLock { state in
                guard let start = state.streamStart, let offset = state.soundOffset else { return nil }
                return start + .seconds(Double(offset) / bytesPerSecond)
            }
        }

        /// When the byte at `offset` of the stream reached the sink.
        func instant(ofByte offset: Int) -> ContinuousClock.Instant? {
            state.withLock { $0.streamStart.map { $0 + .seconds(Double(offset) / bytesPerSecond) } }
        }
    }

    /// Every byte recorded, shared with the reading thread.
    private final class Recording: Sendable {
        let bytes = Mutex(Data())
    }
    /// Kept when asked (`keepsRecording`).
    private let kept: Recording?

    /// Starts recording and waits until the monitor streams (silence, while nothing plays).
    /// - Parameters:
    ///   - latencyMilliseconds: the recording's latency; nil for the server's default,
    ///   as `parec` records unasked. A recording at low latency keeps the null sink rendering in
    ///   steps that short: one at the default leaves the sink as the player alone makes it
    ///   (rendering up to 2 s ahead when no stream plays), but gets its bytes in bursts of up to
    ///   2 s, too late for `firstSound`; it is waited for until it is connected, not streaming.
    ///   - keepsRecording: keep every byte, for `recording`.
    public init(
        _ server: PulseAudioServer, latencyMilliseconds: Int? = 10, timeout: TimeInterval = 10,
        keepsRecording: Bool = false
    ) throws {
        guard let parec = PulseAudioServer.findExecutable("parec", searchPath: nil) else {
            throw TestSupportError("parec is not installed (package pulseaudio-utils)")
        }
        let process = Process()
        process.executableURL = parec
        process.arguments =
            (latencyMilliseconds.map { ["--latency-msec=\($0)"] } ?? []) + [
                "--raw", "--format=s16le", "--rate=\(server.sampleRate)", "--channels=\(server.channels)", "-d",
                server.monitorSourceName,
            ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = server.directory.appendingPathComponent("home").path
        environment.merge(server.environment) { _, new in new }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.runInterruptible()
        self.process = process
        let streaming = Latch()
        let firstSoundAt = FirstSound(bytesPerSecond: server.sampleRate * server.channels * 2)
        self.firstSoundAt = firstSoundAt
        let silences = Silences()
        self.silences = silences
        let kept = keepsRecording ? Recording() : nil
        self.kept = kept
        bytesPerSecond = Double(server.sampleRate * server.channels * 2)
        let finished = finished
        let thread = Thread {
            let descriptor = output.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 4096)
            var total = 0
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let now = ContinuousClock.now
                streaming.open()
                let sound = buffer[..<count].firstIndex(where: { $0 != 0 }).map { total + $0 }
                total += count
                firstSoundAt.read(at: now, total: total, soundOffset: sound)
                silences.read(buffer[..<count])
                kept?.bytes.withLock { $0.append(contentsOf: buffer[..<count]) }
            }
            try? output.fileHandleForReading.close()
            finished.open()
        }
        thread.name = "TestSupport.SinkMonitor"
        thread.start()
        let ready =
            latencyMilliseconds == nil
            ? waitUntil(timeout: timeout) {
                (try? server.pactl(["list", "short", "source-outputs"]).stdout.isEmpty == false) ?? false
            }
            : streaming.wait(until: Date(timeIntervalSinceNow: timeout))
        guard ready else {
            stop()
            throw TestSupportError("parec on \(server.monitorSourceName) recorded nothing within \(timeout) s")
        }
    }

    private let bytesPerSecond: Double

    /// The longest silence recorded between two sounds, in seconds.
    public var longestGap: Double { Double(silences.bytes.longestGap) / bytesPerSecond }

    /// Seconds recorded from the first sound to the last.
    public var secondsFromFirstSoundToLast: Double { Double(silences.bytes.sound) / bytesPerSecond }

    /// Seconds of silence recorded since the last sound (all of the recording before any).
    public var silenceSinceLastSound: Double { Double(silences.bytes.silenceSince) / bytesPerSecond }

    /// What the sink played so far (s16le at the server's rate), when kept (`keepsRecording`).
    public var recording: Data { kept?.bytes.withLock { $0 } ?? Data() }

    /// When the byte at `offset` of `recording` reached the sink; nil before anything was recorded.
    public func instant(ofByte offset: Int) -> ContinuousClock.Instant? { firstSoundAt.instant(ofByte: offset) }

    /// When the first sound reached the sink; nil while none has.
    public var firstSound: ContinuousClock.Instant? { firstSoundAt.instant }

    /// Seconds from the first sound reaching the sink to `instant` (0 while none has).
    public func secondsOfSound(until instant: ContinuousClock.Instant = .now) -> Double {
        guard let firstSound else { return 0 }
        let elapsed = firstSound.duration(to: instant).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// Stops recording. Idempotent.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        _ = finished.wait(until: Date(timeIntervalSinceNow: 5))
    }

    deinit { stop() }
}
