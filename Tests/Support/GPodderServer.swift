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
    public init(user: String = "alice", password: String = "correct horse battery", startupTimeout: TimeInterval = 60)
        throws
    {
        guard Self.isInstalled else {
            throw TestSupportError("no gpodder server: \(Self.python) is missing (run scripts/install-deps.sh)")
        }
        self.user = user
        self.password = password
        directory = try TemporaryDirectory(prefix: "podcli-gpodder-server")
        // The password goes in a file, not in the launcher's argv.
        let passwordFile = try directory.write(password + "\n", to: "password")
        let arguments = [
            Self.scriptURL.path, "--database", directory.appending("gpodder.sqlite").path, "--user", user,
            "--password-file", passwordFile.path,
        ]
        process = try ServerProcess(
            "the gpodder server", executable: URL(fileURLWithPath: Self.python), arguments: arguments,
            workingDirectory: directory.url, startupTimeout: startupTimeout)
        port = process.port
    }

    /// "http://127.0.0.1:PORT" + `path` (which starts with "/").
    public func url(_ path: String) -> String { baseURL + path }

    public var isRunning: Bool { process.isRunning }

    /// What the server wrote to stderr so far (uvicorn's warnings and errors, a traceback).
    public var serverLog: String { process.log }

    /// Stops the server and waits for it.
    public func stop() { process.stop() }

    // Stopped before its directory goes.
    deinit { stop() }
}
