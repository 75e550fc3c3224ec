import EpisodeStore
import GPodderSync

/// One exchange with the sync server, in the order that loses nothing: register the device (once
/// per account), link it with the account's others (once, unless `gpodder-link-devices off`);
/// the server's subscription changes down and applied (a feed subscribed is read at once), then
/// the outbox's up; the server's episode actions down and merged, then the outbox's up, a batch
/// at a time, each batch forgotten once the server took it; the cursors saved last. A failure
/// leaves the outbox and the cursors as they were (what came down is applied again, harmlessly)
/// and is recorded for `remote status`.
public struct RemoteExchange {
    /// What one exchange did.
    public struct Outcome: Sendable {
        public var subscriptions = RemoteSubscriptionSummary()
        public var merge = RemoteMergeSummary()
        /// Subscription changes and episode actions the server took.
        public var subscriptionsUp = 0
        public var actionsUp = 0

        /// "1 subscribed, 2 positions, 3 sent": what changed here and what went up.
        public var summary: String {
            var parts: [String] = []
            if !subscriptions.added.isEmpty { parts.append("\(subscriptions.added.count) subscribed") }
            if !subscriptions.removed.isEmpty { parts.append("\(subscriptions.removed.count) unsubscribed") }
            if merge.positions > 0 { parts.append(Formatting.count(merge.positions, "position")) }
            if merge.played > 0 { parts.append("\(merge.played) played") }
            if merge.unplayed > 0 { parts.append("\(merge.unplayed) unplayed") }
            let sent = subscriptionsUp + actionsUp
            parts.append(sent == 0 ? "nothing to send" : "\(sent) sent")
            return parts.joined(separator: ", ")
        }
    }

    /// What a device is on the server: its caption, and mygpo's type for a computer.
    static let deviceType = "desktop"

    let library: Library
    let server: SyncServer
    let settings: RemoteSettings
    /// Reads the feeds the server subscribed this library to, so the positions that come down next
    /// find their episodes (a failure is the sync's refresh's to report).
    let refresh: ([Feed]) -> Void

    public init(library: Library, server: SyncServer, settings: RemoteSettings, refresh: @escaping ([Feed]) -> Void) {
        self.library = library
        self.server = server
        self.settings = settings
        self.refresh = refresh
    }

    /// Runs it; on failure records the error's line (and when) for `remote status`.
    /// - Throws: `PodcliError.remoteRefused` for a user or password the server refused, other
    ///   `SyncServerError`s (no answer, a 5xx, a reply not the API's), `StoreError`.
    public func run() throws -> Outcome {
        var state = try library.remoteState()
        if state.account != settings.accountKey {
            // Another server, user, device or API: its cursors and device mean nothing here.
            state = RemoteState(account: settings.accountKey)
        }
        do {
            return try exchange(&state)
        } catch {
            var told: any Error = error
            if let refusal = error as? SyncServerError, refusal.isAuthentication {
                told = PodcliError.remoteRefused(server: server.account.server, user: server.account.credentials.user)
            }
            state.lastError = "\(told)"
            state.lastErrorAt = library.clock()
            // The exchange's own error is the one to tell.
            try? library.setRemoteState(state)
            throw told
        }
    }

    private func exchange(_ state: inout RemoteState) throws -> Outcome {
        var outcome = Outcome()
        if !state.deviceRegistered {
            try server.registerDevice(caption: "podcli on \(RemoteSettings.hostname)", type: Self.deviceType)
            state.deviceRegistered = true
            try library.setRemoteState(state)
        }
        if settings.linkDevices && !state.devicesLinked {
            try server.linkDevices()
            state.devicesLinked = true
            try library.setRemoteState(state)
        }

        let subscriptions = try server.subscriptionChanges(since: state.subscriptionsSince)
        outcome.subscriptions = try library.applyRemoteSubscriptions(
            added: subscriptions.added, removed: subscriptions.removed,
            deleteFiles: settings.unsubscribeFiles == .delete)
        if !outcome.subscriptions.added.isEmpty { refresh(outcome.subscriptions.added) }
        let changes = try library.outbox(limit: Int.max).filter { $0.episodeURL == nil }
        if !changes.isEmpty {
            let receipt = try server.uploadSubscriptionChanges(
                added: changes.filter { $0.action == .subscribe }.map(\.podcastURL),
                removed: changes.filter { $0.action == .unsubscribe }.map(\.podcastURL))
            try library.markSent(changes)
            try library.rewriteURLs(Self.usable(receipt.rewrites))
            outcome.subscriptionsUp = changes.count
        }

        let actions = try server.episodeActions(since: state.actionsSince)
        outcome.merge = try library.mergeRemoteEpisodeActions(actions.actions.map(RemoteEpisodeAction.init))
        // Read after the merge, which drops what is older than an action merged.
        let pending = try library.outbox(limit: Int.max).filter { $0.episodeURL != nil }
        var start = 0
        while start < pending.count {
            let batch = Array(pending[start..<min(start + SyncServer.uploadBatchSize, pending.count)])
            let receipt = try server.uploadEpisodeActions(batch.compactMap(EpisodeAction.init))
            // Forgotten batch by batch: a failure later sends only what the server did not take.
            try library.markSent(batch)
            try library.rewriteURLs(Self.usable(receipt.rewrites))
            outcome.actionsUp += batch.count
            start += batch.count
        }

        // The GETs' times, which SyncServer already moved a second back where a server reads
        // `since` as exclusive against its own clock.
        state.subscriptionsSince = subscriptions.timestamp
        state.actionsSince = actions.timestamp
        state.lastExchange = library.clock()
        state.lastError = nil
        state.lastErrorAt = nil
        try library.setRemoteState(state)
        return outcome
    }

    /// The rewrites to apply: mygpo answers a URL it cannot read with an empty one, which names nothing.
    private static func usable(_ rewrites: [URLRewrite]) -> [(from: String, to: String)] {
        rewrites.filter { !$0.to.isEmpty && $0.to != $0.from }.map { ($0.from, $0.to) }
    }
}
