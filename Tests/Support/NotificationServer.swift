import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One Notify call the test server answered.
public struct RecordedNotification: Decodable, Sendable, Equatable {
    public let appName: String
    public let replacesID: UInt32
    public let appIcon: String
    public let summary: String
    public let body: String
    /// Key, label, key, label...
    public let actions: [String]
    public let hints: [String: String]
    public let expireTimeout: Int32
    /// The id the server gave it.
    public let id: UInt32

    public init(
        appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String, actions: [String],
        hints: [String: String], expireTimeout: Int32, id: UInt32
    ) {
        self.appName = appName
        self.replacesID = replacesID
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
        self.id = id
    }

    enum CodingKeys: String, CodingKey {
        case summary, body, actions, hints, id
        case appName = "app_name"
        case replacesID = "replaces_id"
        case appIcon = "app_icon"
        case expireTimeout = "expire_timeout"
    }
}

/// `Tests/Support/notification_server.py` on a test's `MessageBus`: a desktop-notification server
/// (org.freedesktop.Notifications) that records every call and emits ActionInvoked and
/// NotificationClosed when told to, as a user's click would make a real one do. It stops on deinit,
/// or when this process dies (it exits at the end of its stdin, a pipe only we hold).
public final class NotificationServer: Sendable {
    private let process: RunningProcess

    public static let scriptURL: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("notification_server.py")

    /// Debian's python3 has python3-dbus and python3-gi; another one on PATH (pyenv) may not.
    static let python = "/usr/bin/python3"

    /// Why the server cannot run here, or nil.
    public static let unavailableReason: String? = {
        if let reason = MessageBus.unavailableReason { return reason }
        guard FileManager.default.isExecutableFile(atPath: python) else { return "\(python) is not installed" }
        let check = try? RunningProcess(
            executable: URL(fileURLWithPath: python),
            arguments: ["-c", "import dbus, dbus.service, gi.repository.GLib"],
            environment: ProcessInfo.processInfo.environment
        ).waitUntilExit(timeout: 30)
        return check?.succeeded == true ? nil : "\(python) lacks the dbus or gi module (python3-dbus, python3-gi)"
    }()

    /// Starts a server on `bus` that advertises `capabilities` (e.g. ["body", "actions"]) and
    /// returns once it owns the name.
    public init(bus: MessageBus, capabilities: [String]) throws {
        if let reason = Self.unavailableReason { throw TestSupportError(reason) }
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process = try RunningProcess(
            executable: URL(fileURLWithPath: Self.python),
            arguments: [
                Self.scriptURL.path, "--bus", bus.address, "--capabilities", capabilities.joined(separator: ","),
            ],
            environment: environment, keepStdinOpen: true)
        guard waitUntil(timeout: 15, { process.currentStdout.contains("\"ready\": true") || !process.isRunning }),
            process.isRunning
        else {
            process.kill(signal: SIGKILL)
            throw TestSupportError("the notification server did not start: \(try process.waitUntilExit(timeout: 5))")
        }
    }

    deinit {
        process.closeStdin()
        process.kill(signal: SIGTERM)
    }

    /// Every line the server wrote, decoded.
    private var records: [[String: Any]] {
        process.currentStdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The methods called so far, in order ("GetCapabilities", "Notify", ...).
    public var methodsCalled: [String] { records.compactMap { $0["method"] as? String } }

    /// The Notify calls so far, in order.
    public var notifications: [RecordedNotification] {
        process.currentStdout.split(separator: "\n").filter { $0.contains("\"method\": \"Notify\"") }.compactMap {
            try? JSONDecoder().decode(RecordedNotification.self, from: Data($0.utf8))
        }
    }

    /// Waits up to `timeout` seconds for `count` notifications, and returns those there are.
    public func waitForNotifications(_ count: Int = 1, timeout: TimeInterval = 10) -> [RecordedNotification] {
        // The caller looks at how many there are.
        _ = waitUntil(timeout: timeout) { notifications.count >= count }
        return notifications
    }

    /// Emits ActionInvoked(`id`, `key`), as a click on the action would.
    public func invokeAction(_ key: String, on id: UInt32) throws { try command("invoke \(id) \(key)") }

    /// Emits NotificationClosed(`id`, `reason`) (1 expired, 2 dismissed by the user).
    public func close(_ id: UInt32, reason: UInt32 = 2) throws { try command("close \(id) \(reason)") }

    private func command(_ line: String) throws {
        let acknowledged = records.filter { $0["emitted"] != nil }.count
        try process.writeStdin(Data((line + "\n").utf8))
        guard waitUntil(timeout: 10, { records.filter { $0["emitted"] != nil }.count > acknowledged }) else {
            throw TestSupportError("the notification server did not do '\(line)': \(process.currentStderr)")
        }
    }
}
