import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// The secret a `*-secret-command` setting names: the first line the command prints (as mbsync's
/// PassCmd), run by `/bin/sh -c` with stdin /dev/null and stderr the user's (a password store
/// may say why it failed). The secret goes to its caller alone: no message here holds it.
public enum SecretCommand {
    /// What the secret may weigh: a line, not a file.
    static let outputLimit = 64 * 1024

    /// Runs `command` (the value of `setting`) and returns its first output line.
    /// - Throws: `PodcliError.secretCommand` when it cannot start, fails, or prints no line.
    public static func firstLine(of command: String, setting: String) throws(PodcliError) -> String {
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
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        var pid = pid_t()
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { word in strdup(word) } + [nil]
        defer { for argument in argv { free(argument) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else {
            throw .secretCommand(
                setting: setting, problem: "could not start /bin/sh: \(String(cString: strerror(spawned)))")
        }
        let output = Descriptor.readAll(from: ends[0], upTo: outputLimit)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS are macros Swift cannot import.
        guard status & 0x7F == 0 else { throw .secretCommand(setting: setting, problem: "it was killed") }
        let code = (status >> 8) & 0xFF
        guard code == 0 else { throw .secretCommand(setting: setting, problem: "it exited with status \(code)") }
        guard let output else { throw .secretCommand(setting: setting, problem: "it printed more than a line") }
        let line = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        let secret = String(decoding: line, as: UTF8.self).trimmingWhitespace()
        guard !secret.isEmpty else { throw .secretCommand(setting: setting, problem: "it printed no secret") }
        return secret
    }
}
