import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test server run as a child process (`fault_server.py`, `gpodder_server.py`): it prints
/// "PORT <n>" as its first line, and exits when its stdin, a pipe held only by this process,
/// reaches end of file: on `stop()`, on deinit, or when this process dies and the kernel closes
/// the pipe.
final class ServerProcess: Sendable {
    let port: Int
    private let process: RunningProcess
    private let stopped = Mutex(false)

    /// Starts `executable` with `arguments` (a Python script: unbuffered, writing no .pyc) and
    /// waits up to `startupTimeout` seconds for its port.
    /// - Throws: `TestSupportError` naming `what` with what the child wrote, when no port came.
    init(
        _ what: String, executable: URL, arguments: [String], workingDirectory: URL? = nil,
        startupTimeout: TimeInterval
    ) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let process = try RunningProcess(
            executable: executable, arguments: arguments, environment: environment,
            workingDirectory: workingDirectory, keepStdinOpen: true)
        guard let port = Self.printedPort(of: process, timeout: startupTimeout) else {
            let running = process.isRunning
            process.kill(signal: SIGKILL)
            let result = try? process.waitUntilExit(timeout: 5)
            throw TestSupportError(
                """
                \(what) did not print "PORT <n>" \
                \(running ? "within \(startupTimeout) s" : "before exiting") \
                (\(executable.path) \(arguments.joined(separator: " "))); \
                \(result.map { "\($0)" } ?? "")
                """)
        }
        self.process = process
        self.port = port
    }

    /// The port `process` printed within `timeout` seconds, or nil when it printed something
    /// else first, exited, or printed nothing in time.
    private static func printedPort(of process: RunningProcess, timeout: TimeInterval) -> Int? {
        var port: Int?
        // The outcome is `port`.
        _ = waitUntil(timeout: timeout, interval: 0.01) {
            let out = process.currentStdout
            if let line = out.split(separator: "\n", omittingEmptySubsequences: false).first, out.contains("\n") {
                let parts = line.split(separator: " ")
                if parts.count == 2, parts[0] == "PORT", let n = Int(parts[1]) { port = n }
                return true  // a first line: the port or garbage
            }
            return !process.isRunning
        }
        return port
    }

    var isRunning: Bool { process.isRunning }

    /// What the server wrote to stderr so far.
    var log: String { process.currentStderr }

    /// Stops the server (closes its stdin, then SIGTERM, then SIGKILL) and waits for it; once.
    func stop() {
        let already = stopped.withLock { value -> Bool in
            defer { value = true }
            return value
        }
        if already { return }
        process.closeStdin()
        if !waitUntil(timeout: 2, { !process.isRunning }) {
            process.kill(signal: SIGTERM)
            if !waitUntil(timeout: 2, { !process.isRunning }) { process.kill(signal: SIGKILL) }
        }
        _ = try? process.waitUntilExit(timeout: 5)
    }

    /// Kills the server at once (SIGKILL) and waits for it.
    func kill() {
        stopped.withLock { $0 = true }
        process.kill(signal: SIGKILL)
        _ = try? process.waitUntilExit(timeout: 5)
    }

    deinit { stop() }
}
