import DesktopNotifications
import FoundationEssentials
import RemoteControl

#if canImport(Glibc)
    import Glibc
#endif

/// The desktop notification after a sync: one org.freedesktop.Notifications notification listing
/// the episodes it downloaded, with a "Play" action (when the server shows actions) that starts
/// the newest in the background.
public enum NewEpisodesNotice {
    /// Lines the body lists at most; past that, the last says how many more there are.
    public static let listedLines = 5
    /// How long the helper stays on the bus for the user's answer.
    public static let answerTimeout: Duration = .seconds(30 * 60)

    /// Tells the desktop about episodes a sync downloaded (newest first). Never throws, never
    /// blocks the caller: a detached helper (`helpers.postNewEpisodes`) talks to the server and
    /// waits for its action, its output going to /dev/null, so neither a missing server nor a
    /// click half an hour later concerns the sync. Without a session bus, nothing is started.
    public static func post(
        _ episodes: [DownloadedEpisode], environment: [String: String], helpers: any HelperProcesses
    ) {
        guard !episodes.isEmpty, hasSessionBus(environment) else { return }
        helpers.postNewEpisodes(episodes)
    }

    /// The helper's work: shows the notification and, if it offers actions, waits (at most
    /// `answerTimeout`, or until it is closed) for the user to choose "Play".
    /// - Returns: the episode started, if any.
    /// - Throws: `NotificationError` when there is no bus or no server; what `play --background`
    ///   throws when the episode cannot be played.
    @discardableResult
    public static func deliver(
        _ episodes: [DownloadedEpisode], controlSocket: String, helpers: any HelperProcesses
    ) throws -> DownloadedEpisode? {
        guard let newest = episodes.first else { return nil }
        let client = try NotificationClient()
        let notification = Self.notification(for: episodes, capabilities: try client.capabilities())
        let id = try client.send(notification)
        guard !notification.actions.isEmpty else { return nil }
        switch try client.response(to: id, timeout: answerTimeout) {
        case .action(let key) where notification.actions.contains(where: { $0.key == key }):
            try play(newest, controlSocket: controlSocket, helpers: helpers)
            return newest
        case .action, .closed, .timedOut:
            return nil
        }
    }

    /// What the notification says: "3 new episodes", one "Podcast — Title" line each (the first
    /// few), and "Play" (clicking the notification) and "Play newest" when the server shows
    /// actions.
    public static func notification(
        for episodes: [DownloadedEpisode], capabilities: NotificationClient.Capabilities
    ) -> DesktopNotification {
        var lines = episodes.map { episode in
            (episode.podcast.map { "\($0) — " } ?? "") + episode.title
        }
        if lines.count > listedLines {
            let more = lines.count - (listedLines - 1)
            lines = lines.prefix(listedLines - 1) + ["and \(more) more"]
        }
        // A server that reads markup would take a title's "&" or "<" for it.
        if capabilities.contains(.bodyMarkup) { lines = lines.map(DesktopNotification.escapingMarkup) }
        let actions =
            capabilities.contains(.actions)
            ? [
                DesktopNotification.Action(key: "default", label: "Play"),
                DesktopNotification.Action(key: "play", label: episodes.count == 1 ? "Play" : "Play newest"),
            ] : []
        return DesktopNotification(
            appName: "podcli", summary: Formatting.count(episodes.count, "new episode"),
            body: lines.joined(separator: "\n"), actions: actions)
    }

    /// `episode` played in the background, in place of whatever plays now (two players at once
    /// would play over each other).
    private static func play(
        _ episode: DownloadedEpisode, controlSocket: String, helpers: any HelperProcesses
    ) throws {
        if (try? ControlClient.send("stop", to: controlSocket)) != nil {
            var waited = 0
            while waited < 100, (try? ControlClient.send("status", to: controlSocket)) != nil {
                usleep(20_000)
                waited += 1
            }
        }
        try helpers.playInBackground(episode: episode.id)
    }

    /// Whether sd_bus_open_user has a bus to look for: DBUS_SESSION_BUS_ADDRESS, else
    /// $XDG_RUNTIME_DIR/bus. A cron job usually has neither, and then no helper is started.
    public static func hasSessionBus(_ environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return false }
        return access(runtime + "/bus", F_OK) == 0
    }
}
