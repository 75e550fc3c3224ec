import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A running player's end of the control socket: answers each connection's request line with
/// the handler's reply line, on a thread of its own. Connections from another user are closed
/// unanswered. The socket file is removed when the server goes.
public final class ControlServer: Sendable {
    public let path: String
    private let listener: Int32
    private let handle: @Sendable (String) -> String

    /// Listens at `path`.
    /// - Throws: `ControlError.alreadyPlaying` when another player answers there.
    public init(path: String, handle: @escaping @Sendable (String) -> String) throws(ControlError) {
        self.path = path
        self.handle = handle
        listener = try ControlSocket.listen(at: path)
    }

    deinit {
        close(listener)
        unlink(path)
    }

    /// Serves connections on a thread of its own, until the process ends.
    public func start() {
        // A queue of its own gets a thread of its own, which accept(2) may block for good.
        DispatchQueue(label: "podcli.control").async { [self] in serve() }
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            defer { close(connection) }
            // A request that never ends must not hold the player's socket.
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard ControlSocket.peerUID(connection) == getuid(), let request = ControlSocket.readLine(connection)
            else { continue }
            ControlSocket.writeLine(handle(request), to: connection)
        }
    }
}

/// The other end: sends a request line to the player and returns its reply line.
public enum ControlClient {
    /// - Throws: `ControlError.nothingPlaying` when no player listens at `path`.
    public static func send(_ request: String, to path: String) throws(ControlError) -> String {
        let connection = try ControlSocket.connect(to: path)
        defer { close(connection) }
        guard ControlSocket.writeLine(request, to: connection), let reply = ControlSocket.readLine(connection) else {
            throw .nothingPlaying
        }
        return reply
    }
}
