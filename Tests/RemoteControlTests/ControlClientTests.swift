import Foundation
import TestSupport
import Testing

@testable import RemoteControl

#if canImport(Glibc)
    import Glibc
#endif

/// A client of the control socket never waits for long (a status bar calls it every second):
/// real sockets, a real stuck server, a real stopped process.
@Suite struct ControlClientTests {
    /// A server that takes 3 s to answer: the client gives up after its second, in one error
    /// that names the player's pid.
    @Test func aPlayerThatDoesNotAnswerWithinASecondIsGivenUpOn() throws {
        let directory = try TemporaryDirectory()
        let path = ControlServerTests.socketPath(in: directory)
        let server = try ControlServer(path: path) { _ in
            Thread.sleep(forTimeInterval: 3)
            return "late"
        }
        server.start()
        let started = Date()
        #expect(throws: ControlError.notAnswering(pid: getpid())) { try ControlClient.send("status", to: path) }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.9 && waited < 4, "gave up after \(waited) s")
        #expect(
            ControlError.notAnswering(pid: 42).description == "the player (pid 42) did not answer within 1 s")
    }

    /// A player stopped by SIGSTOP: the kernel still accepts the connection, but the client sees
    /// the stopped process and says so at once, with how to continue it.
    @Test func aStoppedPlayerIsReportedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let path = ControlServerTests.socketPath(in: directory)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let listener = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/python3"),
            arguments: [
                "-c",
                "import socket, sys, time\ns = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)\n"
                    + "print('ready', flush=True)\ntime.sleep(60)",
                path,
            ],
            environment: ProcessInfo.processInfo.environment)
        defer { listener.kill(signal: SIGKILL) }
        #expect(waitUntil(timeout: 10) { listener.currentStdout == "ready\n" })
        kill(listener.pid, SIGSTOP)
        #expect(waitUntil(timeout: 5) { ControlClient.isStopped(listener.pid) })
        let started = Date()
        #expect(throws: ControlError.suspended(pid: listener.pid)) { try ControlClient.send("status", to: path) }
        #expect(Date().timeIntervalSince(started) < 0.9, "at once, not after the second")
        kill(listener.pid, SIGCONT)
        #expect(waitUntil(timeout: 5) { !ControlClient.isStopped(listener.pid) })
    }

    /// `stop` ends the server's thread at once: it waits in poll(2) on the socket and its stop
    /// event, not in accept(2).
    @Test func stoppingTheServerEndsItsThreadAtOnce() throws {
        let directory = try TemporaryDirectory()
        let path = ControlServerTests.socketPath(in: directory)
        let server = try ControlServer(path: path) { _ in "ok" }
        server.start()
        #expect(try ControlClient.send("status", to: path) == "ok")
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 0.5)
        withExtendedLifetime(server) {}
    }
}
