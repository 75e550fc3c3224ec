import Foundation
import TestSupport
import Testing

@testable import Downloads

/// `APIClient` against a real gpodder.net-API server (gpodder-fastapi-router, `GPodderServer`):
/// the mygpo API 2 calls a sync makes, and what this server does with them that a sync relies on.
@Suite(.requires(GPodderServer.isInstalled, "the gpodder server's venv (scripts/install-deps.sh)"))
struct APIClientGPodderTests {
    let server: GPodderServer
    let client = APIClient(policy: DownloadPolicy(userAgent: "podcli/test"))
    let credentials: BasicCredentials

    init() throws {
        server = try GPodderServer()
        credentials = BasicCredentials(user: server.user, password: server.password)
    }

    struct UploadAnswer: Decodable {
        let timestamp: Int
        let updateURLs: [[String]]

        enum CodingKeys: String, CodingKey {
            case timestamp
            case updateURLs = "update_urls"
        }
    }
    struct SubscriptionChanges: Decodable {
        let add: [String]
        let remove: [String]
        let timestamp: Int
    }
    struct EpisodeAction: Codable, Equatable {
        var podcast: String
        var episode: String
        var guid: String?
        var device: String?
        var action: String
        var timestamp: String?
        var started: Int?
        var position: Int?
        var total: Int?
    }
    struct EpisodeActions: Decodable {
        let actions: [EpisodeAction]
        let timestamp: Int
    }

    private func api(_ path: String) -> String { server.url("/api/2/\(path)") }

    struct SyncStatus: Decodable { let synchronized: [[String]] }

    /// Sends `body` as JSON to the API at `path`; decodes the reply as `T`.
    private func call<T: Decodable>(_ method: HTTPMethod, _ path: String, _ body: some Encodable, as: T.Type) throws
        -> T
    {
        try call(method, path, json: Array(try JSONEncoder().encode(body)), as: T.self)
    }

    private func call<T: Decodable>(_ method: HTTPMethod, _ path: String, json: [UInt8]? = nil, as: T.Type) throws -> T
    {
        let reply = try client.perform(APIRequest(method, api(path), jsonBody: json, credentials: credentials))
        #expect(reply.isJSON)
        return try JSONDecoder().decode(T.self, from: Data(reply.body))
    }

    @Test func logInUploadSubscriptionsAndAnEpisodeActionAndReadThemBack() throws {
        let login = api("auth/alice/login.json")
        let reply = try client.perform(APIRequest(.post, login, credentials: credentials))
        #expect(reply.status == 200 && reply.body.isEmpty)
        let wrong = BasicCredentials(user: "alice", password: "not the password")
        #expect(throws: APIError.unauthorized(status: 401, url: login, user: "alice")) {
            try client.perform(APIRequest(.post, login, credentials: wrong))
        }

        let feed = "https://example.com/feed.xml"
        let gone = "https://example.org/gone.rss"
        let added = try call(
            .post, "subscriptions/alice/podcli-laptop.json", ["add": [feed, gone], "remove": []], as: UploadAnswer.self)
        #expect(added.updateURLs.isEmpty)
        _ = try call(
            .post, "subscriptions/alice/podcli-laptop.json", ["add": [], "remove": [gone]], as: UploadAnswer.self)
        let changes = try call(.get, "subscriptions/alice/podcli-laptop.json?since=0", as: SubscriptionChanges.self)
        #expect(changes.add == [feed] && changes.remove == [gone])

        let play = EpisodeAction(
            podcast: feed, episode: "https://example.com/episode-1.mp3", guid: "episode-1", device: "podcli-laptop",
            action: "play", timestamp: "2026-01-02T03:04:05", started: 0, position: 120, total: 1800)
        _ = try call(.post, "episodes/alice.json", [play], as: UploadAnswer.self)
        let read = try call(.get, "episodes/alice.json?since=0", as: EpisodeActions.self)
        #expect(read.actions == [play])
    }

    /// What a sync must handle, as this server does it (gpodder-fastapi-router 0.1.3).
    @Test func sinceTimestampsAndLinkedDevicesAsThisServerHasThem() throws {
        // Episode actions: since is inclusive and filters on each action's own timestamp; any
        // ISO 8601 form is read, and it comes back as UTC "YYYY-MM-DDTHH:MM:SS"; no paging.
        let base = EpisodeAction(podcast: "https://example.com/feed.xml", episode: "", action: "play")
        var actions: [EpisodeAction] = []
        for (number, timestamp) in ["2026-01-02T03:04:05Z", "2026-01-02T05:04:06.250+02:00", "2026-01-02T03:04:07"]
            .enumerated()
        {
            var action = base
            action.episode = "https://example.com/\(number).mp3"
            action.timestamp = timestamp
            actions.append(action)
        }
        _ = try call(.post, "episodes/alice.json", actions, as: UploadAnswer.self)
        let boundary = 1_767_323_046  // 2026-01-02T03:04:06Z
        let since = try call(.get, "episodes/alice.json?since=\(boundary)", as: EpisodeActions.self)
        #expect(since.actions.map(\.episode) == ["https://example.com/1.mp3", "https://example.com/2.mp3"])
        #expect(since.actions.map(\.timestamp) == ["2026-01-02T03:04:06", "2026-01-02T03:04:07"])
        #expect(since.timestamp == boundary + 1)  // the newest action's, not the server's clock

        // Subscriptions: since is exclusive; a URL the server normalizes comes back in update_urls.
        let answer = try call(
            .post, "subscriptions/alice/desktop.json", ["add": ["http://Example.NET/Feed"]], as: UploadAnswer.self)
        #expect(answer.updateURLs == [["http://Example.NET/Feed", "http://example.net/Feed"]])
        let after = try call(
            .get, "subscriptions/alice/desktop.json?since=\(answer.timestamp)", as: SubscriptionChanges.self)
        #expect(after.add.isEmpty)
        #expect(
            try call(
                .get, "subscriptions/alice/desktop.json?since=\(answer.timestamp - 1)", as: SubscriptionChanges.self
            ).add
                == ["http://example.net/Feed"])

        // sync-devices links only devices the server knows (made by any call naming them), and a
        // linked device reads the other's subscriptions.
        let link = ["synchronize": [["desktop", "phone"]]]
        #expect(
            throws: APIError.http(
                status: 404, url: api("sync-devices/alice.json"), detail: #"{"detail":"device 'phone' not found"}"#)
        ) {
            _ = try call(.post, "sync-devices/alice.json", link, as: SyncStatus.self)
        }
        struct Device: Encodable { let caption: String, type: String }
        _ = try call(
            .post, "devices/alice/phone.json", Device(caption: "Phone", type: "mobile"), as: [String: String].self)
        let linked = try call(.post, "sync-devices/alice.json", link, as: SyncStatus.self)
        #expect(linked.synchronized == [["desktop", "phone"]])
        let phone = try call(.get, "subscriptions/alice/phone.json?since=0", as: SubscriptionChanges.self)
        #expect(phone.add == ["http://example.net/Feed"])
    }
}
