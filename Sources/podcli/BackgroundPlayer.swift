import CSystem
import FoundationEssentials
import RemoteControl

#if canImport(Glibc)
    import Glibc
#endif

/// `podcli play --background`: the same `play`, run again as a process of its own session, with no
/// terminal (closing the terminal does not stop it), its output in a log beside the control
/// socket. The command returns once the player answers on the socket.
enum BackgroundPlayer {
    /// Starts the player with `arguments` (the command line without `--background`).
    /// - Throws: a failure carrying the player's own last words when it stops before answering.
    static func start(arguments: [String], controlSocket: String, output: Output) throws {
        let log = controlSocket + ".log"
        // The log sits beside the socket, in a directory only this user can enter.
        let directory = String(controlSocket[..<(controlSocket.lastIndex(of: "/") ?? controlSocket.startIndex)])
        if !directory.isEmpty && mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw CommandFailure(
                description: "cannot make \(directory): \(String(cString: strerror(errno)))", exitCode: .storage)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        // Nothing else of ours: a pipe a caller reads to its end must not stay open in the player.
        csystem_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, csystem_spawn_new_session())
        let argv = ["podcli"] + arguments
        var pid = pid_t()
        let spawned = withCStrings(argv) { argv in
            posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, environ)
        }
        guard spawned == 0 else {
            throw CommandFailure(
                description: "cannot start a player: \(String(cString: strerror(spawned)))", exitCode: .storage)
        }
        // Up when it reports what it plays; gone if it exits first (no device, no such episode...).
        for _ in 0..<200 {
            if let reply = try? ControlClient.send("status", to: controlSocket), !reply.hasPrefix("error ") {
                output.print("Playing in the background (\(pid)): 'podcli status', 'podcli attach', 'podcli stop'")
                return
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let words = (try? String(contentsOfFile: log, encoding: .utf8))?
                    .split(separator: "\n").last.map { String($0.dropFirst($0.hasPrefix("podcli: ") ? 8 : 0)) }
                throw CommandFailure(
                    description: words ?? "the player stopped at once",
                    exitCode: ExitCode(rawValue: (status >> 8) & 0xff) ?? .storage)
            }
            usleep(25_000)
        }
        throw CommandFailure(description: "the player did not answer within 5 s (see \(log))", exitCode: .unavailable)
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R)
        -> R
    {
        let copies = strings.map { strdup($0) } + [nil]
        defer { for copy in copies { free(copy) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
