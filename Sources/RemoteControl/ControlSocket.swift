import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Why the control socket could not be used, worded so a user can act on it.
public enum ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No player is listening (none running, or it stopped).
    case nothingPlaying
    /// The socket's directory or file could not be made or used.
    case socket(path: String, reason: String)
    /// Another player already answers on the socket.
    case alreadyPlaying(path: String)
    /// The player's process is stopped (Ctrl-Z, SIGSTOP): nothing in it runs until it continues.
    case suspended(pid: Int32)
    /// The player took longer than `ControlClient.timeout` to answer.
    case notAnswering(pid: Int32?)

    public var description: String {
        switch self {
        case .nothingPlaying: return "nothing is playing (start a player with 'podcli play')"
        case .socket(let path, let reason): return "cannot use \(path) for the control socket: \(reason)"
        case .alreadyPlaying(let path): return "another podcli is already playing (its control socket is \(path))"
        case .suspended(let pid):
            return "the player (pid \(pid)) is suspended (Ctrl-Z): it answers again once continued "
                + "('fg' in its terminal, or 'kill -CONT \(pid)')"
        case .notAnswering(let pid):
            return "the player\(pid.map { " (pid \($0))" } ?? "") did not answer within "
                + "\(Int(ControlClient.timeout)) s"
        }
    }
}

/// The control socket of a running player: a Unix stream socket that takes one line and answers
/// one line. It lives in a directory only its user can enter (0700), is itself 0600, and every
/// connection's peer is checked (SO_PEERCRED): another user is refused even if they get through.
public enum ControlSocket {
    /// The longest line either side sends.
    static let maximumLine = 64 * 1024

    /// Makes sure `directory` is a place only this user controls, creating it (0700) if missing.
    ///
    /// Without `XDG_RUNTIME_DIR` the control directory is in /tmp, where anyone could have made
    /// it first: an existing one must be a directory (not a link), this user's, and writable by
    /// nobody else, or it is refused. The mode of a directory podcli did not create is never
    /// changed (the `--home` directory may be shared with a media server).
    /// - Throws: `ControlError.socket`, saying what is wrong and what to do.
    public static func prepareDirectory(_ directory: String) throws(ControlError) {
        if mkdir(directory, 0o700) == 0 {
            // Ours: exactly 0700, whatever the umask.
            chmod(directory, 0o700)
        } else if errno != EEXIST {
            throw .socket(path: directory, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        guard lstat(directory, &status) == 0 else {
            throw .socket(path: directory, reason: String(cString: strerror(errno)))
        }
        let advice = "remove it, or set XDG_RUNTIME_DIR to a directory of yours"
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .socket(path: directory, reason: "it is not a directory (a link?); \(advice)")
        }
        guard status.st_uid == getuid() else {
            throw .socket(path: directory, reason: "it belongs to another user (uid \(status.st_uid)); \(advice)")
        }
        guard status.st_mode & 0o022 == 0 else {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw .socket(path: directory, reason: "other users can write in it (mode \(mode)); \(advice)")
        }
    }

    /// Opens `path` for listening, in a directory `prepareDirectory` accepts; refuses when a
    /// player answers there already, and takes over a stale socket of ours left by one that died.
    static func listen(at path: String) throws(ControlError) -> Int32 {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty { try prepareDirectory(directory) }
        if let existing = try? connect(to: path, timeout: ControlClient.timeout) {
            close(existing)
            throw .alreadyPlaying(path: path)
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            // Only a stale socket of ours is taken over: anything else there is not ours to remove.
            guard status.st_mode & S_IFMT == S_IFSOCK, status.st_uid == getuid() else {
                throw .socket(path: path, reason: "something else is there (not a socket of yours); remove it")
            }
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socket(path: path, reason: String(cString: strerror(errno))) }
        // bind makes the socket file with the umask's mode; it is made 0600 before anyone can
        // connect (listen). Not by setting the umask around bind: the umask is the process's, and
        // every thread's files and every process started meanwhile would get 0177 too.
        guard (try? withAddress(path, { bind(descriptor, $0, $1) })) == 0, chmod(path, 0o600) == 0,
            Glibc.listen(descriptor, 8) == 0
        else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .socket(path: path, reason: reason)
        }
        return descriptor
    }

    /// A connection to the player at `path`: a socket of this user's, answered by a process of
    /// this user's (anything else is refused, never talked to), whose connect, sends and receives
    /// each give up after `timeout` seconds (a stopped player's full backlog blocks even connect(2)).
    static func connect(to path: String, timeout: Double) throws(ControlError) -> Int32 {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .nothingPlaying }
        guard status.st_mode & S_IFMT == S_IFSOCK, status.st_uid == getuid() else {
            throw .socket(
                path: path, reason: "it is not a socket of yours (owner uid \(status.st_uid)); not talking to it")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socket(path: path, reason: String(cString: strerror(errno))) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        for option in [SO_SNDTIMEO, SO_RCVTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        guard (try? withAddress(path, { Glibc.connect(descriptor, $0, $1) })) == 0 else {
            close(descriptor)
            throw .nothingPlaying
        }
        guard let peer = peerUID(descriptor), peer == getuid() else {
            close(descriptor)
            throw .socket(path: path, reason: "another user's process answers there; not talking to it")
        }
        return descriptor
    }

    /// The user at the other end of a connection.
    static func peerUID(_ descriptor: Int32) -> uid_t? {
        var uid: UInt32 = 0
        return csystem_peer_uid(descriptor, &uid) == 0 ? uid : nil
    }

    /// The process at the other end: for a client, the player that listens.
    static func peerPID(_ descriptor: Int32) -> Int32? {
        var pid: Int32 = 0
        return csystem_peer_pid(descriptor, &pid) == 0 && pid > 0 ? pid : nil
    }

    private static func withAddress(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) throws(ControlError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw .socket(path: path, reason: "the path is too long for a socket") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Reads one line (without its newline); nil at the end or on an error.
    static func readLine(_ descriptor: Int32) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < maximumLine {
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    @discardableResult
    static func writeLine(_ text: String, to descriptor: Int32) -> Bool {
        let bytes = Array((text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
