import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a finished child process ended, and everything it wrote.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status; for a process ended by a signal, the signal's number (as Foundation
    /// reports it), with `signal` set too.
    public let status: Int32
    /// The signal that ended the process, or nil if it exited.
    public let signal: Int32?
    public let stdoutData: Data
    public let stderrData: Data

    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    public var stderr: String { String(decoding: stderrData, as: UTF8.self) }
    /// Exited with status 0.
    public var succeeded: Bool { signal == nil && status == 0 }

    public init(status: Int32, signal: Int32?, stdoutData: Data, stderrData: Data) {
        self.status = status
        self.signal = signal
        self.stdoutData = stdoutData
        self.stderrData = stderrData
    }

    public var description: String {
        let how = signal.map { "killed by signal \($0)" } ?? "exit status \(status)"
        return "\(how)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
    }
}

/// A one-way gate that any number of threads can wait on.
final class Latch: Sendable {
    private let opened = Mutex(false)
    private let condition = NSCondition()

    func open() {
        condition.lock()
        opened.withLock { $0 = true }
        condition.broadcast()
        condition.unlock()
    }

    var isOpen: Bool { opened.withLock { $0 } }

    /// Waits until the latch is open or the deadline passes; returns whether it is open.
    func wait(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) { return isOpen }
        }
        return true
    }
}

/// Drains a pipe on its own thread (so a child can never block on a full pipe), keeping
/// everything read so far.
final class PipeDrain: Sendable {
    private let data = Mutex(Data())
    private let finished = Latch()

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        let thread = Thread { [self] in
            let fd = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    buffer.withUnsafeBytes { raw in
                        data.withLock { $0.append(contentsOf: raw.prefix(n)) }
                    }
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            try? handle.close()
            finished.open()
        }
        thread.name = "TestSupport.PipeDrain"
        thread.start()
    }

    /// What has been read so far.
    var snapshot: Data { data.withLock { $0 } }

    /// Waits for end of file (the writer side closed everywhere), or the deadline.
    @discardableResult
    func waitForEOF(until deadline: Date) -> Bool { finished.wait(until: deadline) }
}

/// A child process started with its output drained in the background; see
/// `PodcliRunner.start`. Use it to interrupt a running podcli (e.g. `kill(signal: SIGKILL)`
/// mid-download) and then collect what it wrote.
public final class RunningProcess: Sendable {
    private let process: Process
    private let stdoutDrain: PipeDrain
    private let stderrDrain: PipeDrain
    private let exited: Latch
    private let stdinHandle: FileHandle?
    public let pid: Int32
    public let arguments: [String]

    /// Starts `executable` with `arguments` and `environment` (the whole environment, not a
    /// delta). With `stdin` nil the child reads /dev/null; otherwise it reads `stdin` and
    /// then end of file. With `keepStdinOpen` the child's stdin stays an open pipe instead
    /// (see `closeStdin()`, `writeStdin(_:)`).
    public init(
        executable: URL, arguments: [String], environment: [String: String],
        workingDirectory: URL? = nil, stdin: Data? = nil, keepStdinOpen: Bool = false
    ) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }

        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        var inPipe: Pipe?
        if stdin != nil || keepStdinOpen {
            let pipe = Pipe()
            process.standardInput = pipe
            inPipe = pipe
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let exited = Latch()
        process.terminationHandler = { _ in exited.open() }

        do {
            try process.runInterruptible()
        } catch {
            throw TestSupportError("could not start \(executable.path): \(error)")
        }
        self.process = process
        self.exited = exited
        self.pid = process.processIdentifier
        self.arguments = arguments
        // Foundation closes the child's ends of the pipes in the parent after spawning,
        // so the drains see EOF once the child (and anything it forked) is gone.
        self.stdoutDrain = PipeDrain(out)
        self.stderrDrain = PipeDrain(err)
        self.stdinHandle = inPipe?.fileHandleForWriting
        if let stdin, let handle = inPipe?.fileHandleForWriting {
            let keepOpen = keepStdinOpen
            // Write on another thread: the child may not read it all before producing output.
            let thread = Thread {
                // A child that exits without reading everything must not kill us with SIGPIPE.
                // Block it on this thread only (write() then fails with EPIPE): ignoring it
                // process-wide would be inherited by every child spawned afterwards.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                try? handle.write(contentsOf: stdin)
                if !keepOpen { try? handle.close() }
            }
            thread.start()
        }
    }

    public var isRunning: Bool { !exited.isOpen }

    /// What the process has written to stdout so far.
    public var currentStdout: String { String(decoding: stdoutDrain.snapshot, as: UTF8.self) }
    /// What the process has written to stderr so far.
    public var currentStderr: String { String(decoding: stderrDrain.snapshot, as: UTF8.self) }

    /// Sends `signal` (default SIGKILL) to the process. Does nothing once it has exited.
    public func kill(signal: Int32 = SIGKILL) {
        guard isRunning else { return }
        _ = systemKill(pid, signal)
    }

    /// Writes to the child's stdin (only with `keepStdinOpen`).
    public func writeStdin(_ data: Data) throws {
        guard let stdinHandle else { throw TestSupportError("stdin of \(pid) is not a pipe") }
        try stdinHandle.write(contentsOf: data)
    }

    /// Closes the child's stdin (only with `keepStdinOpen`).
    public func closeStdin() {
        try? stdinHandle?.close()
    }

    /// Waits for the process to exit and for its output to end, and returns the result.
    /// After `timeout` seconds the process is killed with SIGKILL and an error thrown that
    /// carries what it wrote.
    public func waitUntilExit(timeout: TimeInterval = 60) throws -> ProcessResult {
        var timedOut = false
        if !exited.wait(until: Date(timeIntervalSinceNow: timeout)) {
            timedOut = true
            _ = systemKill(pid, SIGKILL)
            _ = exited.wait(until: Date(timeIntervalSinceNow: 10))
        }
        // The pipes end when the child exits, unless it left a grandchild holding them.
        let deadline = Date(timeIntervalSinceNow: timedOut ? 2 : 10)
        stdoutDrain.waitForEOF(until: deadline)
        stderrDrain.waitForEOF(until: deadline)
        let result: ProcessResult
        if exited.isOpen {
            let bySignal = process.terminationReason == .uncaughtSignal
            result = ProcessResult(
                status: process.terminationStatus, signal: bySignal ? process.terminationStatus : nil,
                stdoutData: stdoutDrain.snapshot, stderrData: stderrDrain.snapshot)
        } else {
            result = ProcessResult(
                status: -1, signal: SIGKILL, stdoutData: stdoutDrain.snapshot,
                stderrData: stderrDrain.snapshot)
        }
        if timedOut {
            throw TestSupportError(
                "\(processName) \(arguments) did not finish within \(timeout) s and was killed; "
                    + "\(result)")
        }
        return result
    }

    private var processName: String { process.executableURL?.lastPathComponent ?? "process" }

    deinit {
        // Never leave a child behind.
        if !exited.isOpen { _ = systemKill(pid, SIGKILL) }
        try? stdinHandle?.close()
    }
}

extension Process {
    /// Runs it with no signal blocked. The child inherits the signal mask of the thread that
    /// spawns it, and test code runs on libdispatch workers that block SIGTERM, SIGINT, SIGHUP
    /// and others: a child started from there could not be interrupted.
    func runInterruptible() throws {
        var empty = sigset_t()
        var saved = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try run()
    }
}

@inline(__always)
private func systemKill(_ pid: Int32, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}

/// Polls `condition` every `interval` seconds until it is true (returns true) or `timeout`
/// seconds pass (returns false). For waiting on a server, a file or a process.
/// Its answer must be looked at (`#expect`, `guard`): a wait whose outcome is dropped lets a test
/// go on as if the condition had held.
public func waitUntil(
    timeout: TimeInterval = 10, interval: TimeInterval = 0.02, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: interval)
    }
}
