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
        case .socket(let path, let reason): return "cannot use the control socket \(path): \(reason)"
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

    /// Opens `path` for listening, creating its directory; refuses when a player answers there
    /// already, and takes over a stale socket left by one that died.
    static func listen(at path: String) throws(ControlError) -> Int32 {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty {
            if mkdir(directory, 0o700) != 0 && errno != EEXIST {
                throw .socket(path: path, reason: String(cString: strerror(errno)))
            }
            var status = stat()
            guard stat(directory, &status) == 0, status.st_uid == getuid() else {
                throw .socket(path: path, reason: "its directory \(directory) belongs to another user")
            }
            chmod(directory, 0o700)
        }
        if let existing = try? connect(to: path, timeout: ControlClient.timeout) {
            close(existing)
            throw .alreadyPlaying(path: path)
        }
        unlink(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socket(path: path, reason: String(cString: strerror(errno))) }
        let previous = umask(0o177)
        defer { umask(previous) }
        guard (try? withAddress(path, { bind(descriptor, $0, $1) })) == 0, Glibc.listen(descriptor, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .socket(path: path, reason: reason)
        }
        chmod(path, 0o600)
        return descriptor
    }

    /// A connection to the player at `path`, whose connect, sends and receives each give up
    /// after `timeout` seconds (a stopped player's full backlog blocks even connect(2)).
    static func connect(to path: String, timeout: Double) throws(ControlError) -> Int32 {
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
