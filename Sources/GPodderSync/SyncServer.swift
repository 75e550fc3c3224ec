import Downloads
import FoundationEssentials
import Strings
import Threads

/// One account on a sync server, spoken to in its dialect: mygpo's API 2
/// (https://gpoddernet.readthedocs.io/en/latest/api/reference/) or the Nextcloud gPodder Sync
/// app's endpoints. Every URL that goes up loses its user name and password first: a feed's
/// credentials are the listener's, not the server's.
///
/// Not `Sendable`: it owns one `APIClient`, used by one thread at a time.
public final class SyncServer {
    /// Episode actions per upload. mygpo hands an upload of more than `API_ACTIONS_MAX_NONBG`
    /// (100 by default) actions to a background job and answers at once with no `update_urls`
    /// and no error it may meet later; 100 keeps every upload answered for what it did, and a
    /// batch small (about 25 KiB) for a server that reads a body whole.
    public static let uploadBatchSize = 100
    /// gpodder.net's `MAX_EPISODE_ACTIONS`: it answers with the oldest 1,000 actions since the
    /// time asked and, as the reply's timestamp, the last one's (not its clock), so a full page
    /// means more may follow from that time on.
    static let actionsPageSize = 1000
    /// Pages read at most in one `episodeActions` call: a server that keeps answering with
    /// something new stops here (the next exchange goes on from the cursor).
    static let maximumPages = 1000

    public let account: SyncAccount
    private let client: APIClient

    /// - Parameter stop: ends a request under way (`APIError.stopped`) when signalled.
    public init(account: SyncAccount, policy: DownloadPolicy, stop: StopEvent? = nil) {
        self.account = account
        client = APIClient(policy: policy, stop: stop)
    }

    /// Tells the server this device's caption and type (`desktop`, `laptop`, `mobile`, `server`,
    /// `other`); mygpo makes the device if it does not exist. The Nextcloud app has no devices.
    public func registerDevice(caption: String, type: String) throws(SyncServerError) {
        guard account.dialect == .gpodder else { return }
        let url = apiURL("devices/\(user)/\(device).json")
        // mygpo answers with an empty body, others with {"id": ...}: only the status matters.
        _ = try send(.post, url, json: try encoded(WireFormat.Device(caption: caption, type: type), for: url))
    }

    /// Joins this device with every other device of the account (`sync-devices`), so they share
    /// their subscriptions, as Kasts does; nothing when it already is in one group with all of
    /// them. The Nextcloud app keeps one list per user: nothing to link.
    public func linkDevices() throws(SyncServerError) {
        guard account.dialect == .gpodder else { return }
        let url = apiURL("sync-devices/\(user).json")
        let groups = try call(.get, url, as: WireFormat.SyncGroups.self)
        guard let everyone = Self.unlinked(account.device, in: groups) else { return }
        let request = try encoded(WireFormat.SyncRequest(synchronize: [everyone], stopSynchronize: []), for: url)
        do {
            _ = try call(.post, url, json: request, as: WireFormat.SyncGroups.self)
        } catch .api(.http(let status, _, _)) where status >= 500 {
            // mygpo links the devices before it writes its answer, and that can fail: what the
            // server now says decides.
            let after = try call(.get, url, as: WireFormat.SyncGroups.self)
            if Self.unlinked(account.device, in: after) != nil {
                throw .api(.http(status: status, url: url, detail: nil))
            }
        }
    }

    /// Every device, sorted, when `device` is not already in a group with all of them; nil when it
    /// is, or when it is the only one.
    static func unlinked(_ device: String, in groups: WireFormat.SyncGroups) -> [String]? {
        var everyone = Set(groups.synchronized.joined()).union(groups.notSynchronized ?? [])
        everyone.insert(device)
        guard everyone.count > 1, !groups.synchronized.contains(where: { Set($0) == everyone }) else { return nil }
        return everyone.sorted()
    }

    /// What a cursor that is a server's clock is moved back by. gpodder-fastapi-router's and the
    /// Nextcloud app's subscriptions, and the app's episode actions, answer with the time of the
    /// answer and read `since` as exclusive: a change another device makes in that same second
    /// would never come. Asking again from a second earlier brings it, and at worst repeats one
    /// second of changes, which applying twice leaves as they were.
    static let clockOverlap = 1

    /// The subscriptions added and removed on the server since `since` (Unix seconds; 0 for all),
    /// and the time to ask from next (`clockOverlap` before the server's).
    public func subscriptionChanges(since: Int) throws(SyncServerError) -> SubscriptionChanges {
        let url =
            account.dialect == .gpodder
            ? apiURL("subscriptions/\(user)/\(device).json?since=\(since)")
            : nextcloudURL("subscriptions?since=\(since)")
        let reply = try call(.get, url, as: WireFormat.SubscriptionsReply.self)
        return SubscriptionChanges(
            added: reply.add, removed: reply.remove, timestamp: max(since, reply.timestamp.seconds - Self.clockOverlap))
    }

    /// Sends subscriptions added and removed here. A URL in both is sent as added (mygpo refuses
    /// a URL in both; the listener's last word is for the caller's outbox to keep).
    public func uploadSubscriptionChanges(added: [String], removed: [String]) throws(SyncServerError)
        -> UploadReceipt
    {
        let add = unique(added.map(URLPassword.removingUserInfo))
        let addedSet = Set(add)
        let remove = unique(removed.map(URLPassword.removingUserInfo).filter { !addedSet.contains($0) })
        guard !add.isEmpty || !remove.isEmpty else { return UploadReceipt(timestamp: 0, rewrites: []) }
        let url =
            account.dialect == .gpodder
            ? apiURL("subscriptions/\(user)/\(device).json") : nextcloudURL("subscription_change/create")
        let body = try encoded(WireFormat.SubscriptionUpload(add: add, remove: remove), for: url)
        return try receipt(of: call(.post, url, json: body, as: WireFormat.UploadReply.self), from: url)
    }

    /// The episode actions on the server since `since`, each once. mygpo's `since` is inclusive
    /// and its pages end at 1,000 actions with the last one's time: a full page is followed from
    /// that time, where the actions at the boundary come again and are dropped as duplicates.
    /// The Nextcloud app's `since` is exclusive and it sends everything in one reply, with its
    /// clock as the time (moved back by `clockOverlap`).
    public func episodeActions(since: Int) throws(SyncServerError) -> EpisodeActionChanges {
        // The Nextcloud app answers with everything: a long answer is not a page.
        try episodeActions(since: since, pageSize: account.dialect == .gpodder ? Self.actionsPageSize : Int.max)
    }

    /// `episodeActions(since:)` for a server whose pages hold `pageSize` actions.
    func episodeActions(since: Int, pageSize: Int) throws(SyncServerError) -> EpisodeActionChanges {
        var seen = Set<EpisodeAction>()
        var actions: [EpisodeAction] = []
        var cursor = since
        for _ in 0..<Self.maximumPages {
            let url =
                account.dialect == .gpodder
                ? apiURL("episodes/\(user).json?since=\(cursor)") : nextcloudURL("episode_action?since=\(cursor)")
            let page = try call(.get, url, as: WireFormat.EpisodeActionsReply.self)
            var fresh = 0
            for action in page.actions.compactMap(\.action) where seen.insert(action).inserted {
                actions.append(action)
                fresh += 1
            }
            cursor = max(cursor, page.timestamp.seconds)
            // A short page is the last; a full one that brought nothing new (more than a page of
            // actions in one second) cannot be read past.
            guard page.actions.count >= pageSize, fresh > 0 else { break }
        }
        if account.dialect == .nextcloud { cursor = max(since, cursor - Self.clockOverlap) }
        return EpisodeActionChanges(actions: actions, timestamp: cursor)
    }

    /// Sends episode actions, `uploadBatchSize` at a time, in order. A batch the server did not
    /// take throws; those before it were taken (the receipt is lost with the error, so the caller
    /// sends them again: a server keeps each action once per episode and time, or a row per episode).
    public func uploadEpisodeActions(_ actions: [EpisodeAction]) throws(SyncServerError) -> UploadReceipt {
        let url = account.dialect == .gpodder ? apiURL("episodes/\(user).json") : nextcloudURL("episode_action/create")
        var result = UploadReceipt(timestamp: 0, rewrites: [])
        var start = 0
        while start < actions.count {
            let batch = actions[start..<min(start + Self.uploadBatchSize, actions.count)].map { action in
                var action = action
                action.podcast = URLPassword.removingUserInfo(from: action.podcast)
                action.episode = URLPassword.removingUserInfo(from: action.episode)
                return WireFormat.UploadedAction(action: action, device: account.device, dialect: account.dialect)
            }
            let body = try encoded(batch, for: url)
            let receipt = try receipt(of: call(.post, url, json: body, as: WireFormat.UploadReply.self), from: url)
            result.timestamp = receipt.timestamp
            result.rewrites += receipt.rewrites
            start += Self.uploadBatchSize
        }
        return result
    }

    // MARK: The exchange

    private var user: String { account.credentials.user.addingPercentEscapesToAllButUnreserved() }
    private var device: String { account.device.addingPercentEscapesToAllButUnreserved() }

    private var base: String {
        var server = account.server
        while server.hasSuffix("/") { server.removeLast() }
        return server
    }

    private func apiURL(_ path: String) -> String { base + "/api/2/" + path }
    private func nextcloudURL(_ path: String) -> String { base + "/index.php/apps/gpoddersync/" + path }

    private func send(_ method: HTTPMethod, _ url: String, json: [UInt8]? = nil) throws(SyncServerError) -> APIReply {
        do {
            return try client.perform(APIRequest(method, url, jsonBody: json, credentials: account.credentials))
        } catch {
            throw .api(error)
        }
    }

    private func call<Reply: Decodable>(_ method: HTTPMethod, _ url: String, json: [UInt8]? = nil, as: Reply.Type)
        throws(SyncServerError) -> Reply
    {
        let reply = try send(method, url, json: json)
        do {
            return try JSONDecoder().decode(Reply.self, from: Data(reply.body))
        } catch {
            var problem = WireFormat.problem(error)
            if !reply.isJSON, let type = reply.mediaType { problem += " (it is \(type))" }
            throw .badReply(url: url, problem: problem)
        }
    }

    private func encoded(_ value: some Encodable, for url: String) throws(SyncServerError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(value))
        } catch {
            // Only a non-finite number fails to encode, and nothing sent has one.
            throw .badReply(url: url, problem: "the request could not be written as JSON")
        }
    }

    /// The receipt of an upload: `update_urls` pairs, less those the server refused (rewritten to
    /// "", which mygpo then ignores) and those it left as they were.
    private func receipt(of reply: WireFormat.UploadReply, from url: String) throws(SyncServerError) -> UploadReceipt {
        var rewrites: [URLRewrite] = []
        for pair in reply.updateURLs ?? [] {
            guard pair.count == 2 else {
                throw .badReply(url: url, problem: "an 'update_urls' entry is not a pair of URLs")
            }
            if !pair[1].isEmpty, pair[0] != pair[1] { rewrites.append(URLRewrite(from: pair[0], to: pair[1])) }
        }
        return UploadReceipt(timestamp: reply.timestamp.seconds, rewrites: rewrites)
    }

    private func unique(_ urls: [String]) -> [String] {
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted }
    }
}
