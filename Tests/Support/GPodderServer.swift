import Foundation

/// A real gpodder.net (mygpo API 2) server for one test: gpodder-fastapi-router under uvicorn,
/// started by `Tests/Support/gpodder_server.py` on 127.0.0.1 with a fresh SQLite database and
/// one user, and stopped on `stop()`, on deinit, or when this process dies.
///
/// It runs in the virtual environment `scripts/install-deps.sh` makes at `venv` (Debian 12's
/// FastAPI is too old for it). A test that needs it says `.requires(GPodderServer.isInstalled,
/// ...)`: skipped on a machine without the venv, run (and failing) under CI=true.
public final class GPodderServer: Sendable {
    /// Where scripts/install-deps.sh puts the server's virtual environment.
    public static let venv = "/opt/podcli-gpodder-server"
    public static var python: String { venv + "/bin/python3" }
    public static var isInstalled: Bool { TestEnvironment.has(python) }

    public let port: Int
    public let user: String
    public let password: String
    /// "http://127.0.0.1:PORT", the server's root (the API is under /api/2/).
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let process: ServerProcess
    private let directory: TemporaryDirectory

    /// The launcher, found beside this source file.
    public static let scriptURL: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("gpodder_server.py")

    /// Starts a server whose one account is `user` with `password`. Throws if it does not print
    /// its port within `startupTimeout` seconds (FastAPI's imports take seconds on a loaded machine).
    /// - Parameter holdingUpload: the number of the upload of episode actions the server holds
    ///   unread and unanswered (`waitUntilHolding`), for a test that kills it meanwhile.
    public convenience init(
        user: String = "alice", password: String = "correct horse battery", holdingUpload: Int? = nil,
        startupTimeout: TimeInterval = 60
    ) throws {
        guard Self.isInstalled else {
            throw TestSupportError("no gpodder server: \(Self.python) is missing (run scripts/install-deps.sh)")
        }
        try self.init(
            user: user, password: password, directory: TemporaryDirectory(prefix: "podcli-gpodder-server"), port: nil,
            holdingUpload: holdingUpload, startupTimeout: startupTimeout)
    }

    /// Starts a server again on `previous`'s database and port, once `previous` was stopped or
    /// killed: what the server had taken is there, and a client finds it where it was.
    public convenience init(continuing previous: GPodderServer, startupTimeout: TimeInterval = 60) throws {
        try self.init(
            user: previous.user, password: previous.password, directory: previous.directory, port: previous.port,
            holdingUpload: nil, startupTimeout: startupTimeout)
    }

    private init(
        user: String, password: String, directory: TemporaryDirectory, port: Int?, holdingUpload: Int?,
        startupTimeout: TimeInterval
    ) throws {
        self.user = user
        self.password = password
        self.directory = directory
        // The password goes in a file, not in the launcher's argv.
        let passwordFile = try directory.write(password + "\n", to: "password")
        var arguments = [
            Self.scriptURL.path, "--database", directory.appending("gpodder.sqlite").path, "--user", user,
            "--password-file", passwordFile.path,
        ]
        if let port { arguments += ["--existing", "--port", "\(port)"] }
        if let holdingUpload { arguments += ["--hold-upload", "\(holdingUpload)"] }
        process = try ServerProcess(
            "the gpodder server", executable: URL(fileURLWithPath: Self.python), arguments: arguments,
            workingDirectory: directory.url, startupTimeout: startupTimeout)
        self.port = process.port
    }

    /// "http://127.0.0.1:PORT" + `path` (which starts with "/").
    public func url(_ path: String) -> String { baseURL + path }

    public var isRunning: Bool { process.isRunning }

    /// The body of a GET of `path` as the account's user, read through the server's own API by
    /// the venv's Python (the credentials on its stdin, not in its argv); throws unless it is 2xx.
    public func get(_ path: String) throws -> Data {
        let script = """
            import base64, sys, urllib.request
            user, password = sys.stdin.read().split("\\n")[:2]
            token = base64.b64encode((user + ":" + password).encode()).decode()
            request = urllib.request.Request(sys.argv[1], headers={"Authorization": "Basic " + token})
            sys.stdout.buffer.write(urllib.request.urlopen(request, timeout=30).read())
            """
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: Self.python), arguments: ["-c", script, url(path)],
            environment: ProcessInfo.processInfo.environment, stdin: Data("\(user)\n\(password)\n".utf8)
        ).waitUntilExit(timeout: 30)
        guard result.status == 0 else { throw TestSupportError("GET \(path): \(result)") }
        return result.stdoutData
    }

    /// What the server wrote to stderr so far (uvicorn's warnings and errors, a traceback).
    public var serverLog: String { process.log }

    /// Stops the server and waits for it.
    public func stop() { process.stop() }

    /// Kills the server (SIGKILL: nothing it holds is answered or finished) and waits for it.
    public func kill() { process.kill() }

    /// Waits up to `timeout` seconds for the server to hold the upload `holdingUpload` named.
    public func waitUntilHolding(timeout: TimeInterval = 60) -> Bool {
        waitUntil(timeout: timeout, interval: 0.02) { self.serverLog.contains("HOLDING UPLOAD") }
    }

    // Stopped before its directory goes.
    deinit { stop() }
}
