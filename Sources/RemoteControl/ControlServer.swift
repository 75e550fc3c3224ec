import Synchronization
import Threads

#if canImport(Glibc)
    import Glibc
#endif

/// A running player's end of the control socket: answers each connection's request line with
/// the handler's reply line, on a thread of its own. Connections from another user are closed
/// unanswered. The socket file is removed when the server goes; `stop` (or the end of the
/// server) ends and joins its thread.
public final class ControlServer: Sendable {
    public let path: String
    private let listener: Int32
    private let handle: @Sendable (String) -> String
    private let thread = Mutex<ServiceThread?>(nil)

    /// How long a connection may take to send its request line before it is dropped: a client
    /// that never writes must not hold the player's socket.
    static let requestTimeout = timeval(tv_sec: 1, tv_usec: 0)

    /// Listens at `path`.
    /// - Throws: `ControlError.alreadyPlaying` when another player answers there.
    public init(path: String, handle: @escaping @Sendable (String) -> String) throws(ControlError) {
        self.path = path
        self.handle = handle
        listener = try ControlSocket.listen(at: path)
        // Non-blocking: the thread waits in poll(2), on the socket and on its stop event, and a
        // connection gone between the poll and the accept must not block it there.
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        stop()
        close(listener)
        unlink(path)
    }

    /// Serves connections on a thread of its own, until `stop`.
    public func start() {
        let listener = listener
        let handle = handle
        thread.withLock { thread in
            guard thread == nil else { return }
            thread = ServiceThread(name: "podcli.control") { stop in Self.serve(listener, handle, stop: stop) }
        }
    }

    /// Ends the thread (an answer under way is finished first) and waits for it.
    public func stop() { thread.withLock { $0 }?.stop() }

    private static func serve(_ listener: Int32, _ handle: (String) -> String, stop: StopEvent) {
        var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        while stop.wait(for: &descriptors, timeout: nil) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            defer { close(connection) }
            var timeout = requestTimeout
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard ControlSocket.peerUID(connection) == getuid(), let request = ControlSocket.readLine(connection)
            else { continue }
            ControlSocket.writeLine(handle(request), to: connection)
        }
    }
}
