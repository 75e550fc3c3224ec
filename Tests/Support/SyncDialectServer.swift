import Foundation

/// `Tests/Support/sync_dialect_server.py` as a child process: gpodder.net's paging of episode
/// actions and the Nextcloud gPodder Sync app's endpoints, which no test can run here, answered
/// with bodies shaped as their documentation and source give them (see the script's header),
/// every request logged.
public final class SyncDialectServer: Sendable {
    /// One request the server answered.
    public struct Request: Decodable, Sendable {
        public let method: String
        /// Path and query, as sent.
        public let path: String
        /// The JSON body, re-encoded with sorted keys (nil for none).
        public let body: String?
    }

    public let port: Int
    public let user: String
    public let password: String
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let process: ServerProcess
    private let directory: TemporaryDirectory
    private let logFile: URL

    public static let scriptURL: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("sync_dialect_server.py")

    /// Starts a server holding `actions` (each an episode action in the API's shape plus "epoch",
    /// its time in Unix seconds) and `subscriptions` ({"add": [...], "remove": [...]}), answering
    /// mygpo's pages of at most `pageSize` actions, and `devices` as its sync-devices answer.
    public init(
        actions: [[String: any Sendable]], subscriptions: [String: [String]] = ["add": [], "remove": []],
        devices: [String: [any Sendable]] = ["synchronized": [], "not-synchronized": []],
        pageSize: Int = 1000, user: String = "alice", password: String = "correct horse battery"
    ) throws {
        self.user = user
        self.password = password
        directory = try TemporaryDirectory(prefix: "podcli-sync-dialect")
        let scenario: [String: Any] = [
            "user": user, "password": password, "actions": actions, "subscriptions": subscriptions, "devices": devices,
        ]
        let scenarioFile = try directory.write(
            try JSONSerialization.data(withJSONObject: scenario), to: "scenario.json")
        logFile = directory.appending("requests.jsonl")
        let python = ProcessInfo.processInfo.environment["FAULT_SERVER_PYTHON"] ?? "python3"
        process = try ServerProcess(
            "the sync dialect server", executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                python, Self.scriptURL.path, "--scenario", scenarioFile.path, "--log", logFile.path,
                "--page-size", String(pageSize),
            ],
            startupTimeout: 10)
        port = process.port
    }

    /// The requests answered so far, in order (each is logged before it is answered).
    public func requests() throws -> [Request] {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    public var serverLog: String { process.log }

    public func stop() { process.stop() }

    deinit { stop() }
}
