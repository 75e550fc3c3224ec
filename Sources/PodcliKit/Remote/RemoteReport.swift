import EpisodeStore

/// Where this library stands with its sync server: what `remote status` prints (as lines, or as
/// JSON). No password: the settings hold none.
public struct RemoteReport: Encodable, Sendable {
    /// nil when `gpodder-server` is not set.
    public let server: String?
    public let user: String?
    public let device: String
    public let api: String
    /// Unix seconds of the last exchange with this account that completed.
    public let lastExchange: Int?
    /// Changes waiting to go up, by outbox action (`subscribe`, `play`, ...).
    public let waiting: [String: Int]
    public let lastError: String?
    public let lastErrorAt: Int?
    /// What the server will not keep, when its API says so.
    public let note: String?

    enum CodingKeys: String, CodingKey {
        case server, user, device, api, waiting, note
        case lastExchange = "last_exchange"
        case lastError = "last_error"
        case lastErrorAt = "last_error_at"
    }

    /// The Nextcloud app's own limit (its changelog, 3.13.3): downloads, deletions and marks are dropped.
    static let nextcloudNote =
        "the Nextcloud gPodder Sync app keeps only play actions from its version 3.13.3 on: downloads, deletions "
        + "and episodes marked unplayed are sent but not kept"

    public init(settings: RemoteSettings, library: Library) throws(StoreError) {
        server = settings.server
        user = settings.user
        device = settings.deviceID
        api = settings.api.rawValue
        let state = try library.remoteState()
        // The state of another account (the settings changed since) says nothing of this one.
        let ours = state.account != nil && state.account == settings.accountKey
        lastExchange = ours ? state.lastExchange : nil
        lastError = ours ? state.lastError : nil
        lastErrorAt = ours ? state.lastErrorAt : nil
        waiting = Dictionary(uniqueKeysWithValues: try library.outboxCounts().map { ($0.key.rawValue, $0.value) })
        note = settings.server != nil && settings.api == .nextcloud ? Self.nextcloudNote : nil
    }

    /// The report as `remote status` prints it.
    public var lines: [String] {
        let pending = OutboxEntry.Action.allCases.compactMap { action in
            waiting[action.rawValue].map { Self.words($0, action) }
        }
        let waitingLine = "Waiting to go up: " + (pending.isEmpty ? "nothing" : pending.joined(separator: ", "))
        guard let server else {
            return [
                "No sync server: set gpodder-server, gpodder-user and gpodder-password-command "
                    + "('podcli config set KEY VALUE')",
                waitingLine,
            ]
        }
        var lines = [
            "Server: \(server) (\(api) API)", "User: \(user ?? "(none: set gpodder-user)")", "Device: \(device)",
            "Last exchange: " + (lastExchange.map(Formatting.time) ?? "never"), waitingLine,
        ]
        if let lastError {
            lines.append("Last error: " + (lastErrorAt.map { Formatting.time($0) + ": " } ?? "") + lastError)
        }
        if let note { lines.append("Note: " + note) }
        return lines
    }

    /// "3 plays", "1 unsubscribed".
    private static func words(_ count: Int, _ action: OutboxEntry.Action) -> String {
        switch action {
        case .subscribe: return "\(count) subscribed"
        case .unsubscribe: return "\(count) unsubscribed"
        case .play: return Formatting.count(count, "play")
        case .download: return Formatting.count(count, "download")
        case .delete: return Formatting.count(count, "deletion")
        case .new: return "\(count) marked unplayed"
        }
    }
}
