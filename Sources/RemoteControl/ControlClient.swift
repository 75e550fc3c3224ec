import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// The other end of the control socket: sends a request line to the player and returns its reply
/// line, within `timeout`. A player that cannot answer (stopped by Ctrl-Z or SIGSTOP, or stuck)
/// is a prompt error, never a wait: a status bar calling `podcli status` must not freeze.
public enum ControlClient {
    /// How long a client waits for the player's answer, all in all.
    public static let timeout = 1.0

    /// - Throws: `ControlError.nothingPlaying` when no player listens at `path`; `.suspended`
    ///   at once when the player's process is stopped; `.notAnswering` after `timeout`.
    public static func send(_ request: String, to path: String) throws(ControlError) -> String {
        let started = DispatchTime.now().uptimeNanoseconds
        let connection = try ControlSocket.connect(to: path, timeout: timeout)
        defer { close(connection) }
        // The kernel accepts for a stopped process and holds the request: ask the kernel instead.
        let player = ControlSocket.peerPID(connection)
        if let player, isStopped(player) { throw .suspended(pid: player) }
        if ControlSocket.writeLine(request, to: connection), let reply = ControlSocket.readLine(connection) {
            return reply
        }
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if let player, isStopped(player) { throw .suspended(pid: player) }
        // No reply before the time was up: stuck. An end without a reply: it was quitting.
        guard waited >= timeout * 0.9 else { throw .nothingPlaying }
        throw .notAnswering(pid: player)
    }

    /// Whether process `pid` is stopped (state T in /proc/PID/stat: SIGSTOP, SIGTSTP, SIGTTIN...).
    static func isStopped(_ pid: Int32) -> Bool {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return false }
        // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses, so look after
        // the last ')'.
        guard let end = bytes[..<count].lastIndex(of: UInt8(ascii: ")")), end + 2 < count else { return false }
        return bytes[end + 2] == UInt8(ascii: "T")
    }
}
