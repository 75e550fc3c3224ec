import DesktopNotifications
import Foundation
import TestSupport
import Testing

/// `NotificationClient` against a recording notification server on a private bus.
@Suite(.requires(NotificationServer.unavailableReason == nil, "needs dbus-daemon, python3-dbus and python3-gi"))
struct NotificationClientTests {
    let bus: MessageBus

    init() throws { bus = try MessageBus() }

    static let notification = DesktopNotification(
        appName: "podcli", summary: "2 new episodes", body: "Show — One\nShow — Two",
        actions: [.init(key: "default", label: "Play"), .init(key: "play", label: "Play newest")])

    @Test(
        arguments: [
            ([], NotificationClient.Capabilities()),
            (["body", "actions"], .actions),
            (["body", "body-markup", "persistence"], .bodyMarkup),
            (["actions", "body-markup"], [.actions, .bodyMarkup]),
        ] as [([String], NotificationClient.Capabilities)])
    func capabilitiesAreWhatTheServerAdvertises(advertised: [String], expected: NotificationClient.Capabilities)
        throws
    {
        let server = try NotificationServer(bus: bus, capabilities: advertised)
        let client = try NotificationClient(address: bus.address)
        #expect(try client.capabilities() == expected)
        // The server's record reaches us through a pipe, a moment after its reply.
        #expect(waitUntil { server.methodsCalled == ["GetCapabilities"] })
    }

    @Test func notifySendsExactlyTheNotificationAndReturnsTheServersID() throws {
        let server = try NotificationServer(bus: bus, capabilities: ["actions"])
        let client = try NotificationClient(address: bus.address)
        #expect(try client.send(Self.notification) == 41)
        #expect(
            server.waitForNotifications() == [
                RecordedNotification(
                    appName: "podcli", replacesID: 0, appIcon: "", summary: "2 new episodes",
                    body: "Show — One\nShow — Two", actions: ["default", "Play", "play", "Play newest"], hints: [:],
                    expireTimeout: -1, id: 41)
            ])
        var plain = Self.notification
        plain.actions = []
        #expect(try client.send(plain) == 42)
        #expect(server.waitForNotifications(2).last?.actions == [])
    }

    @Test func theActionInvokedOnItsNotificationIsTheResponse() throws {
        let server = try NotificationServer(bus: bus, capabilities: ["actions"])
        let client = try NotificationClient(address: bus.address)
        let id = try client.send(Self.notification)
        // Emitted before the wait begins: the client subscribed before it sent the notification.
        try server.invokeAction("play", on: id + 1)
        try server.invokeAction("play", on: id)
        #expect(try client.response(to: id, timeout: .seconds(10)) == .action("play"))
    }

    @Test func closingTheNotificationIsTheResponse() throws {
        let server = try NotificationServer(bus: bus, capabilities: ["actions"])
        let client = try NotificationClient(address: bus.address)
        let id = try client.send(Self.notification)
        try server.close(id + 5)
        try server.close(id)
        #expect(try client.response(to: id, timeout: .seconds(10)) == .closed)
    }

    @Test func withNoAnswerTheWaitEndsAtItsTimeout() throws {
        let server = try NotificationServer(bus: bus, capabilities: ["actions"])
        let client = try NotificationClient(address: bus.address)
        let id = try client.send(Self.notification)
        let started = Date()
        #expect(try client.response(to: id, timeout: .milliseconds(300)) == .timedOut)
        #expect(Date().timeIntervalSince(started) >= 0.3)
        #expect(Date().timeIntervalSince(started) < 3)
        _ = server
    }

    @Test func aBusWithNoServerFailsAtOnceWithTheBusError() throws {
        let client = try NotificationClient(address: bus.address)
        let started = Date()
        #expect {
            try client.capabilities()
        } throws: { error in
            guard case NotificationError.callFailed(let operation, _, let message) = error else { return false }
            return operation == "GetCapabilities" && message.hasPrefix("org.freedesktop.DBus.Error.ServiceUnknown")
        }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test func noBusIsNoBus() throws {
        let directory = try TemporaryDirectory(prefix: "podcli-nobus")
        #expect(throws: NotificationError.self) {
            try NotificationClient(address: "unix:path=\(directory.path)/absent")
        }
    }

    @Test func markupIsEscapedForServersThatReadIt() {
        #expect(DesktopNotification.escapingMarkup("Q&A <live> — \"5 > 3\"") == "Q&amp;A &lt;live&gt; — \"5 &gt; 3\"")
    }
}
