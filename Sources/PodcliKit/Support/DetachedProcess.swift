import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Another podcli, started with `arguments` in a session of its own (posix_spawn, SETSID): no
/// terminal, so closing the caller's terminal does not stop it; stdin /dev/null (or a descriptor
/// given), stdout and stderr to `log` (or /dev/null), and no other descriptor of ours. The log is
/// made anew (0600): whatever is at its path is removed first, and a link planted there is never
/// followed.
public enum DetachedProcess {
    /// Starts it and returns its pid, or the errno posix_spawn failed with.
    /// - Parameter environment: variables set for it, over this process's.
    public static func spawn(
        _ arguments: [String], log: String? = nil, stdin: Int32? = nil, environment: [String: String] = [:]
    ) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        if let log {
            unlink(log)
            posix_spawn_file_actions_addopen(
                &actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        // Nothing else of ours: a pipe a caller reads to its end must not stay open in the child.
        csystem_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, csystem_spawn_new_session())
        let argv = ["podcli"] + arguments
        var pid = pid_t()
        let spawned = withCStrings(argv) { argv in
            guard !environment.isEmpty else {
                return posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, environ)
            }
            var inherited: [String] = []
            var entry = environ
            while let variable = entry.pointee {
                let text = String(cString: variable)
                if !environment.keys.contains(where: { text.hasPrefix($0 + "=") }) { inherited.append(text) }
                entry += 1
            }
            return withCStrings(inherited + environment.map { "\($0)=\($1)" }) { envp in
                posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, UnsafeMutablePointer(mutating: envp))
            }
        }
        return spawned == 0 ? .success(pid) : .failure(SpawnError(code: spawned))
    }

    /// Runs it to its end.
    /// - Returns: its exit status, or nil when it could not start or was killed by a signal.
    public static func run(_ arguments: [String]) -> Int32? {
        guard case .success(let pid) = spawn(arguments) else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return nil }
        }
        // WIFEXITED and WEXITSTATUS are macros Swift cannot import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
    }

    /// posix_spawn's errno.
    public struct SpawnError: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String { String(cString: strerror(code)) }
    }

    private static func withCStrings<R>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R {
        let copies = strings.map { strdup($0) } + [nil]
        defer { for copy in copies { free(copy) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
