import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The desktop notification after a sync, end to end: the built podcli posts it as a sync does
/// (`podcli notify-new --episodes JSON`, the hidden command that calls `NewEpisodesNotice.post`,
/// and `podcli sync` itself) to a recording notification server on a private session bus, whose
/// signals stand in for the user's clicks.
@Suite(.requires(NotificationServer.unavailableReason == nil, "needs dbus-daemon, python3-dbus and python3-gi"))
struct NewEpisodesNoticeTests {
    /// A podcli world with a session bus of its own.
    struct Desktop {
        let t: CLITestCase
        let bus: MessageBus

        init(t: CLITestCase? = nil, bus: MessageBus? = nil) throws {
            self.t = try t ?? CLITestCase()
            self.bus = try bus ?? MessageBus()
        }

        var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": bus.address] }

        /// Posts a notice for `episodes` (id, title, podcast; newest first) as a sync does, and
        /// checks that it returned at once, silently, having left no descriptor of its output open.
        func post(
            _ episodes: [(Int, String, String?)], environment extra: [String: String] = [:],
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let started = Date()
            let result = try t.run(
                ["notify-new", "--episodes", NewEpisodesNoticeTests.json(episodes)],
                environment: environment.merging(extra) { _, new in new })
            // RunningProcess waits for the end of stdout and stderr: a helper holding them would
            // keep this waiting 10 s, one waiting on the bus 5 s. (It takes about 0.05 s; the
            // margin is for a loaded machine.)
            #expect(Date().timeIntervalSince(started) < 3, sourceLocation: sourceLocation)
            #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
        }

        /// The helpers (`notify-new --helper`) of this test's podcli that are alive.
        var helpers: [Int32] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap(Int32.init).filter { pid in
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
                let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                return words.contains("--helper") && words.contains(t.home.path)
            }
        }

        /// Whether every helper has gone within `timeout` seconds.
        func helpersExit(within timeout: TimeInterval = 5) -> Bool { waitUntil(timeout: timeout) { helpers.isEmpty } }

        /// Ends the helpers a failed test may have left waiting.
        func stopHelpers() { for pid in helpers { kill(pid, SIGKILL) } }
    }

    static func json(_ episodes: [(Int, String, String?)]) -> String {
        let objects = episodes.map { id, title, podcast -> [String: Any] in
            var object: [String: Any] = ["id": id, "title": title]
            if let podcast { object["podcast"] = podcast }
            return object
        }
        return String(decoding: try! JSONSerialization.data(withJSONObject: objects), as: UTF8.self)
    }

    @Test func oneNotificationListsTheEpisodesWithAPlayAction() throws {
        let desktop = try Desktop()
        defer { desktop.stopHelpers() }
        let server = try NotificationServer(bus: desktop.bus, capabilities: ["body", "actions"])
        try desktop.post([(12, "Episode 3", "The Show"), (11, "Episode 2", "The Show"), (7, "A file", nil)])
        let notifications = server.waitForNotifications()
        #expect(
            notifications == [
                RecordedNotification(
                    appName: "podcli", replacesID: 0, appIcon: "", summary: "3 new episodes",
                    body: "The Show — Episode 3\nThe Show — Episode 2\nA file",
                    actions: ["default", "Play", "play", "Play newest"], hints: [:], expireTimeout: -1, id: 41)
            ])
        #expect(server.methodsCalled == ["GetCapabilities", "Notify"])
        // It stays for the answer; closing the notification lets it go, having played nothing.
        #expect(desktop.helpers.count == 1)
        try server.close(41)
        #expect(desktop.helpersExit())
        #expect(try desktop.t.run(["status"]).status == 66)
    }

    /// The helper waits up to 30 minutes for an answer, and any local user can read its command
    /// line (/proc/PID/cmdline): the titles reach it on its stdin, never in its arguments.
    @Test func theHelpersCommandLineCarriesNoTitle() throws {
        let desktop = try Desktop()
        defer { desktop.stopHelpers() }
        let server = try NotificationServer(bus: desktop.bus, capabilities: ["body", "actions"])
        try desktop.post([(12, "Private matters", "Secret show")])
        let notification = try #require(server.waitForNotifications().first)
        #expect(notification.body == "Secret show — Private matters")
        let helper = try #require(desktop.helpers.first)
        let commandLine = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(helper)/cmdline"))
        let words = commandLine.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(words.contains("notify-new") && words.contains("--helper"), "\(words)")
        #expect(!words.contains { $0.contains("Private") || $0.contains("Secret") }, "\(words)")
        try server.close(notification.id)
        #expect(desktop.helpersExit())
    }

    @Test func manyEpisodesEndWithHowManyMoreAndMarkupIsEscaped() throws {
        let desktop = try Desktop()
        defer { desktop.stopHelpers() }
        let server = try NotificationServer(bus: desktop.bus, capabilities: ["body", "body-markup"])
        try desktop.post((1...7).reversed().map { ($0, "Q&A <\($0)>", "Tom & Jerry") })
        let notification = try #require(server.waitForNotifications().first)
        #expect(notification.summary == "7 new episodes")
        #expect(
            notification.body
                == """
                Tom &amp; Jerry — Q&amp;A &lt;7&gt;
                Tom &amp; Jerry — Q&amp;A &lt;6&gt;
                Tom &amp; Jerry — Q&amp;A &lt;5&gt;
                Tom &amp; Jerry — Q&amp;A &lt;4&gt;
                and 3 more
                """)
        #expect(notification.actions == [])
        #expect(desktop.helpersExit())
    }

    /// A server without "actions" gets none, and the helper does not wait for one.
    @Test func withoutActionsTheNotificationHasNoneAndNothingWaits() throws {
        let desktop = try Desktop()
        defer { desktop.stopHelpers() }
        let server = try NotificationServer(bus: desktop.bus, capabilities: ["body"])
        try desktop.post([(3, "Only one", "Show")])
        let notification = try #require(server.waitForNotifications().first)
        #expect(notification.summary == "1 new episode")
        #expect(notification.body == "Show — Only one")
        #expect(notification.actions == [])
        #expect(desktop.helpersExit())
    }

    @Test func withNoSessionBusNothingIsStarted() throws {
        let desktop = try Desktop()
        let runtime = try TemporaryDirectory(prefix: "podcli-runtime")
        try desktop.post(
            [(3, "Only one", "Show")], environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": runtime.path])
        #expect(desktop.helpers.isEmpty)
    }

    /// A bus with no notification server (or none that answers): the sync is not concerned, and
    /// the helper ends.
    @Test func withNoServerOnTheBusTheHelperEndsSilently() throws {
        let desktop = try Desktop()
        defer { desktop.stopHelpers() }
        try desktop.post([(3, "Only one", "Show")])
        #expect(desktop.helpersExit())
        // Run in the foreground, the helper says why (detached, its output goes nowhere).
        let helper = try desktop.t.run(
            ["notify-new", "--episodes", Self.json([(3, "Only one", "Show")]), "--helper"],
            environment: desktop.environment)
        #expect(helper.status == 69)
        #expect(helper.stderr.hasPrefix("podcli: GetCapabilities failed: org.freedesktop.DBus.Error.ServiceUnknown"))
    }

    @Test func anActionOnAnotherNotificationIsNotOurs() throws {
        let desktop = try Desktop()
        defer { desktop.stopHelpers() }
        let server = try NotificationServer(bus: desktop.bus, capabilities: ["actions"])
        try desktop.post([(3, "Only one", "Show")])
        let id = try #require(server.waitForNotifications().first?.id)
        try server.invokeAction("play", on: id + 1)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(desktop.helpers.count == 1)
        try server.invokeAction("something-else", on: id)
        #expect(desktop.helpersExit())
        #expect(try desktop.t.run(["status"]).status == 66)
    }

    static let pacedPlayback =
        PulseAudioServer.unavailableReason == nil && PulseAudioServer.alsaPluginInstalled
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123")

    /// "Play" (or a click on the notification: "default") starts the newest episode in the
    /// background, on the device the user's podcli plays on (here PODCLI_DEVICE: a PulseAudio null
    /// sink behind a capture, so it plays in real time).
    @Test(
        .requires(pacedPlayback, "needs pulseaudio, libasound2-plugins and mpg123"), arguments: ["play", "default"])
    func playStartsTheNewestEpisode(action: String) throws {
        let player = try PlayTerminalTests.Player()
        let t = player.library.t
        let bus = try MessageBus()
        let desktop = try Desktop(t: t, bus: bus)
        defer { desktop.stopHelpers() }
        let server = try NotificationServer(bus: bus, capabilities: ["body", "actions"])
        let older = try player.library.download(PlayCommandTests.mono)
        try desktop.post(
            [(Int(player.id)!, "tone-44k-stereo", nil), (Int(older)!, "noise-22k-mono", nil)],
            environment: player.capture.environment.merging(["PODCLI_DEVICE": ALSACapture.pacedDeviceName]) {
                _, new in new
            })
        let id = try #require(server.waitForNotifications().first?.id)
        try server.invokeAction(action, on: id)

        func status() -> [String: Any]? {
            guard let result = try? t.run(["status", "--json"]), result.status == 0 else { return nil }
            return try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        }
        #expect(waitUntil(timeout: 10) { status()?["state"] as? String == "playing" })
        #expect(status()?["id"] as? Int == Int(player.id))
        #expect(desktop.helpersExit())
        // It plays to the end, what the device heard being the newest episode, whole.
        #expect(waitUntil(timeout: 15) { (try? t.run(["status"]).status) == 66 })
        #expect(try player.capture.pacedCaptured() == (try PlayTerminalTests.reference.get()))
        #expect(try t.show(player.id)["played"] as? Bool == true)
        #expect(try t.show(older)["played"] as? Bool == false)
    }

    @Test func aSyncThatDownloadsEpisodesPostsOneNoticeListingThemNewestFirst() throws {
        let shelf = SyncCommandTests.Shelf()
        let desktop = try Desktop(t: shelf.t)
        defer { desktop.stopHelpers() }
        let server = try NotificationServer(bus: desktop.bus, capabilities: ["body", "actions"])
        try shelf.subscribe(try shelf.serve("alpha", episodes: 1...2))
        try shelf.subscribe(try shelf.serve("beta", episodes: 1...1))
        let started = Date()
        let sync = try shelf.t.run(["sync", "-q"], environment: desktop.environment)
        #expect(sync.status == 0 && sync.stdout.isEmpty && sync.stderr.isEmpty, "\(sync)")
        #expect(Date().timeIntervalSince(started) < 10)
        let notifications = server.waitForNotifications()
        #expect(notifications.count == 1)
        // alpha 2 was published after beta 1.
        #expect(notifications.first?.summary == "2 new episodes")
        #expect(notifications.first?.body == "alpha — alpha 2\nbeta — beta 1", "\(notifications)")
        #expect(notifications.first?.actions == ["default", "Play", "play", "Play newest"])

        // A sync that downloads nothing says nothing.
        try server.close(41)
        #expect(desktop.helpersExit())
        #expect(try shelf.t.run(["sync", "-q"], environment: desktop.environment).status == 0)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(server.methodsCalled == ["GetCapabilities", "Notify"])
    }
}
