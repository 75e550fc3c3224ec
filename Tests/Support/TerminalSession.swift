import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program run on a real pseudo-terminal, as a person at a terminal would run it: its stdin,
/// stdout and stderr are the pty's slave side; the test types on the master side and reads what
/// the program drew.
public final class TerminalSession {
    /// What the program wrote, gathered by a reading thread.
    private final class Screen: Sendable {
        let bytes = Mutex(Data())
    }

    private let master: Int32
    private let slave: Int32
    private let process: Process
    private let screen = Screen()

    public var pid: Int32 { process.processIdentifier }

    public init(
        executable: URL, arguments: [String], environment: [String: String], columns: UInt16 = 100
    ) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw TestSupportError("openpty failed: \(String(cString: strerror(errno)))")
        }
        self.master = master
        self.slave = slave
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        let screen = screen
        let masterSide = master
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(masterSide, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                // EIO: the last program holding the slave side has gone (the test holds it
                // too, so this happens only when the session is closed).
                guard count > 0 else { break }
                screen.bytes.withLock { $0.append(contentsOf: buffer[..<count]) }
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(slave)
        close(master)
    }

    /// Everything the program wrote to the terminal so far.
    public var output: String { String(decoding: screen.bytes.withLock { $0 }, as: UTF8.self) }

    /// Types `keys` on the terminal.
    public func type(_ keys: String) {
        var bytes = Array(keys.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Waits until the output contains `text`; false after `timeout` seconds.
    public func waitForOutput(containing text: String, timeout: TimeInterval = 10) -> Bool {
        waitUntil(timeout: timeout) { output.contains(text) }
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the program to exit and returns its exit code (128 + the signal's number when a
    /// signal killed it).
    public func waitUntilExit(timeout: TimeInterval = 60) throws -> Int32 {
        guard waitUntil(timeout: timeout, { !process.isRunning }) else {
            process.terminate()
            throw TestSupportError("still running after \(timeout) s; the terminal shows:\n\(output)")
        }
        // Let the reader collect what was written just before the exit.
        Thread.sleep(forTimeInterval: 0.05)
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// The terminal's local modes as the program left them: canonical input and echo are what a
    /// shell needs back.
    public var isCanonicalWithEcho: Bool {
        var settings = termios()
        guard tcgetattr(slave, &settings) == 0 else { return false }
        let wanted = tcflag_t(ICANON | ECHO)
        return settings.c_lflag & wanted == wanted
    }
}
