import CSystem
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Where the sync server's password comes from, as mbsync's PassCmd: `PODCLI_GPODDER_PASSWORD`
/// in the environment, else the first line `gpodder-password-command` prints (run by `/bin/sh -c`
/// with podcli's stdin and stderr, so a keyring's complaint reaches the user). The
/// password is held in memory only: never in the configuration, an argument list or a message.
public enum PasswordSource {
    /// The environment variable that overrides the command (for a test, or a one-off run).
    public static let environmentVariable = "PODCLI_GPODDER_PASSWORD"
    /// How long the command may take; a keyring that hangs does not hang a cron job.
    public static let defaultTimeLimit = 60.0
    /// The most of the command's output read: a password is a line, not a file.
    static let outputLimit = 64 * 1024

    /// The password, from `environment` or by running `command`.
    /// - Throws: `PodcliError.noPassword` when neither gives one, `.passwordCommand` when the
    ///   command fails, prints nothing, or runs past `timeLimit` seconds (then it is killed).
    public static func password(
        command: String?, environment: [String: String], timeLimit: Double = defaultTimeLimit
    ) throws(PodcliError) -> String {
        if let password = environment[environmentVariable], !password.isEmpty { return password }
        guard let command else { throw .noPassword }
        let (status, output) = try run(command, timeLimit: timeLimit)
        if status != 0 { throw .passwordCommand(problem: status < 0 ? "was killed by a signal" : "exited with \(status)") }
        let line = output.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first
        var password = String(decoding: line ?? [], as: UTF8.self)
        if password.hasSuffix("\r") { password.removeLast() }
        guard !password.isEmpty else { throw .passwordCommand(problem: "printed no password") }
        return password
    }

    /// Runs `command` and returns its exit status (negative when a signal ended it) and what it
    /// wrote to stdout.
    private static func run(_ command: String, timeLimit: Double) throws(PodcliError) -> (Int32, [UInt8]) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .passwordCommand(problem: "could not start: \(String(cString: strerror(errno)))") }
        let (pipeEnd, writing) = (ends[0], ends[1])
        defer { close(pipeEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writing, STDOUT_FILENO)
        // Nothing else of ours: the pipe's ends in the child would keep it open past its exit.
        csystem_spawn_close_from(&actions, 3)
        // A process group of its own, so what the shell started goes with it at the time limit.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid = pid_t()
        let words: [String] = ["/bin/sh", "-c", command]
        let argv = words.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        close(writing)
        guard spawned == 0 else {
            throw .passwordCommand(problem: "could not start: \(String(cString: strerror(spawned)))")
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeLimit * 1e9)
        var output: [UInt8] = []
        var reading = true
        var status: Int32?
        // Read to the end of its output (or the limit), then wait for it to exit, all by the deadline.
        while status == nil {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                kill(-pid, SIGKILL)
                _ = reap(pid, blocking: true)
                throw .passwordCommand(problem: "did not finish within \(ConfigValue.number(timeLimit)) s")
            }
            if reading && output.count < outputLimit {
                let milliseconds = Int32(min((deadline - now) / 1_000_000 + 1, 100))
                reading = readSome(pipeEnd, into: &output, waiting: milliseconds)
                continue
            }
            status = reap(pid, blocking: false)
            if status == nil { usleep(10_000) }
        }
        return (status!, output)
    }

    /// Waits up to `milliseconds` for output and appends what came; false at its end (or an error).
    private static func readSome(_ descriptor: Int32, into output: inout [UInt8], waiting milliseconds: Int32) -> Bool {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let polled = poll(&ready, 1, milliseconds)
        if polled == 0 { return true }
        if polled < 0 { return errno == EINTR }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 { return errno == EINTR }
        output += buffer.prefix(count)
        return count > 0
    }

    /// The exit status of `pid` (negative for a signal), or nil while it runs.
    private static func reap(_ pid: pid_t, blocking: Bool) -> Int32? {
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if reaped == 0 { return nil }
            if reaped < 0 {
                if errno == EINTR { continue }
                return -1
            }
            // WIFEXITED and WEXITSTATUS are macros Swift cannot import.
            return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
        }
    }
}
