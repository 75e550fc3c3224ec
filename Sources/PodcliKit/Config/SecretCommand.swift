import CSystem
import Dispatch
import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// The secret a `*-secret-command` or `*-password-command` setting names: the first line the
/// command prints (as mbsync's PassCmd), run by `/bin/sh -c` with stdin /dev/null and stderr the
/// user's (a password store may say why it failed), for a bounded time (a keyring that hangs does
/// not hang a cron job). The secret goes to its caller alone: no message here holds it.
public enum SecretCommand {
    /// What the secret may weigh: a line, not a file.
    static let outputLimit = 64 * 1024
    /// How long the command may take.
    public static let defaultTimeLimit = 60.0

    /// Runs `command` (the value of `setting`) and returns its first output line.
    /// - Throws: `PodcliError.secretCommand` when it cannot start, fails, prints no line, or runs
    ///   past `timeLimit` seconds (then it and what it started are killed).
    public static func firstLine(of command: String, setting: String, timeLimit: Double = defaultTimeLimit)
        throws(PodcliError) -> String
    {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .secretCommand(setting: setting, problem: String(cString: strerror(errno)))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        // The child keeps its stdout alone: a copy of either end would hold the pipe open.
        csystem_spawn_close_from(&actions, 3)
        // A process group of its own, so what the shell started goes with it at the time limit.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid = pid_t()
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { word in strdup(word) } + [nil]
        defer { for argument in argv { free(argument) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else {
            throw .secretCommand(
                setting: setting, problem: "could not start /bin/sh: \(String(cString: strerror(spawned)))")
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeLimit * 1e9)
        guard let (status, output) = run(pid, reading: ends[0], until: deadline) else {
            kill(-pid, SIGKILL)
            var ignored: Int32 = 0
            while waitpid(pid, &ignored, 0) == -1 && errno == EINTR {}
            throw .secretCommand(
                setting: setting, problem: "it did not finish within \(ConfigValue.number(timeLimit)) s")
        }
        // WIFEXITED and WEXITSTATUS are macros Swift cannot import.
        guard status & 0x7F == 0 else { throw .secretCommand(setting: setting, problem: "it was killed") }
        let code = (status >> 8) & 0xFF
        guard code == 0 else { throw .secretCommand(setting: setting, problem: "it exited with status \(code)") }
        guard let output else { throw .secretCommand(setting: setting, problem: "it printed more than a line") }
        let line = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        // A CR of a line ended CRLF is no part of the secret.
        let secret = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            .trimmingWhitespace()
        guard !secret.isEmpty else { throw .secretCommand(setting: setting, problem: "it printed no secret") }
        return secret
    }

    /// Reads `pid`'s output to its end, then waits for it to exit, both by `deadline` (uptime
    /// nanoseconds). Returns its wait status and output (nil past `outputLimit`), or nil at the deadline.
    private static func run(_ pid: pid_t, reading descriptor: Int32, until deadline: UInt64) -> (Int32, [UInt8]?)? {
        var output: [UInt8]? = []
        var reading = true
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            if reading {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, Int32(min((deadline - now) / 1_000_000 + 1, 100)))
                guard polled > 0 else {
                    reading = polled == 0 || errno == EINTR
                    continue
                }
                let count = read(descriptor, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                reading = count > 0
                if count > 0, output != nil { output! += chunk[..<count] }
                // Past the limit it is no secret; what is left is drained, not kept.
                if let bytes = output, bytes.count > outputLimit { output = nil }
                continue
            }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return (status, output) }
            if reaped < 0 && errno != EINTR { return (0x7F, output) }
            usleep(10_000)
        }
    }
}
