import Foundation
import TestSupport
import Testing

@testable import RemoteControl

#if canImport(Glibc)
    import Glibc
#endif

/// The control socket with a real Unix socket in a temporary directory.
@Suite struct ControlServerTests {
    static func socketPath(in directory: TemporaryDirectory) -> String { directory.appending("run/control").path }

    @Test func aRequestLineGetsTheHandlersReplyLine() throws {
        let directory = try TemporaryDirectory()
        let path = Self.socketPath(in: directory)
        let server = try ControlServer(path: path) { request in "you said \(request)" }
        server.start()
        #expect(try ControlClient.send("status", to: path) == "you said status")
        #expect(try ControlClient.send("seek -15", to: path) == "you said seek -15")
    }

    @Test func onlyItsUserCanReachTheSocket() throws {
        let directory = try TemporaryDirectory()
        let path = Self.socketPath(in: directory)
        let server = try ControlServer(path: path) { _ in "ok" }
        var status = stat()
        #expect(stat(directory.appending("run").path, &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        withExtendedLifetime(server) {}
    }

    @Test func withNoPlayerTheClientSaysNothingIsPlaying() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ControlError.nothingPlaying) {
            try ControlClient.send("status", to: Self.socketPath(in: directory))
        }
        #expect(ControlError.nothingPlaying.description == "nothing is playing (start a player with 'podcli play')")
    }

    @Test func aSecondPlayerDoesNotTakeTheSocketButAStaleOneIsTakenOver() throws {
        let directory = try TemporaryDirectory()
        let path = Self.socketPath(in: directory)
        let first = try ControlServer(path: path) { _ in "first" }
        first.start()
        #expect(throws: ControlError.alreadyPlaying(path: path)) { try ControlServer(path: path) { _ in "second" } }
        #expect(try ControlClient.send("status", to: path) == "first")

        // A socket file left by a player that died (nobody listens): the next player takes it.
        let stale = directory.appending("run/stale").path
        let bound = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/python3"),
            arguments: ["-c", "import socket; socket.socket(socket.AF_UNIX).bind('\(stale)')"],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        #expect(bound.status == 0 && FileManager.default.fileExists(atPath: stale))
        let next = try ControlServer(path: stale) { _ in "next" }
        next.start()
        #expect(try ControlClient.send("status", to: stale) == "next")
    }

    /// Even when the file modes let another user through, the peer's uid is checked and the
    /// connection closed unanswered. (Needs root, to connect as another user.)
    @Test(
        .requires(
            getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv")
    )
    func anotherUserIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = Self.socketPath(in: directory)
        let server = try ControlServer(path: path) { _ in "ok" }
        server.start()
        chmod(directory.path, 0o755)
        chmod(directory.appending("run").path, 0o755)
        chmod(path, 0o666)
        let script = """
            import socket
            s = socket.socket(socket.AF_UNIX); s.connect("\(path)")
            try:
                s.sendall(b"status\\n")
                print("answered" if s.recv(100) else "refused")
            except (ConnectionResetError, BrokenPipeError):
                print("refused")
            """
        let asNobody = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
            arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit()
        #expect(asNobody.status == 0, "\(asNobody.stderr)")
        #expect(asNobody.stdout == "refused\n")
        #expect(try ControlClient.send("status", to: path) == "ok")
    }
}
