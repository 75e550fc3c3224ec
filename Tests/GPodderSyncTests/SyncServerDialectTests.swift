import Downloads
import Foundation
import TestSupport
import Testing

@testable import GPodderSync

/// What no server here does, against `SyncDialectServer`'s bodies shaped as the mygpo source and
/// the Nextcloud gPodder Sync app's README give them: gpodder.net's 1,000-action pages, the
/// Nextcloud endpoints, and replies that are not the API's.
@Suite struct SyncServerDialectTests {
    static let feed = "https://example.com/feed.xml"
    static let base = 1_767_323_045

    /// `count` play actions in mygpo's GET shape, three to a second.
    static func actions(_ count: Int) -> [[String: any Sendable]] {
        (0..<count).map { index in
            let epoch = base + index / 3
            return [
                "podcast": feed, "episode": "https://example.com/\(index).mp3", "action": "play",
                "timestamp": SyncTimestamp.format(epoch), "device": "phone", "started": 0, "position": index + 1,
                "total": 3600, "epoch": epoch,
            ]
        }
    }

    private func syncServer(
        _ server: SyncDialectServer, _ dialect: SyncDialect, path: String = "", password: String? = nil
    )
        -> SyncServer
    {
        SyncServer(
            account: SyncAccount(
                server: server.baseURL + path,
                credentials: BasicCredentials(user: server.user, password: password ?? server.password),
                device: "podcli-laptop", dialect: dialect),
            policy: DownloadPolicy(userAgent: "podcli/test"))
    }

    /// 2,345 actions: three pages of at most 1,000, each asked from the last one's time, the
    /// actions at each boundary coming twice and kept once, and a short page ending it.
    @Test func gpodderNetPagesAreFollowedUntilAShortOneWithTheBoundaryKeptOnce() throws {
        let server = try SyncDialectServer(actions: Self.actions(2345))
        let changes = try syncServer(server, .gpodder).episodeActions(since: 0)
        #expect(changes.actions.count == 2345)
        #expect(changes.actions.map(\.episode) == (0..<2345).map { "https://example.com/\($0).mp3" })
        #expect(changes.actions[1000].position == 1001 && changes.actions[1000].device == "phone")
        #expect(changes.timestamp == Self.base + 2344 / 3)
        #expect(
            try server.requests().map(\.path) == [
                "/api/2/episodes/alice.json?since=0", "/api/2/episodes/alice.json?since=\(Self.base + 333)",
                "/api/2/episodes/alice.json?since=\(Self.base + 666)",
            ])
    }

    /// since is inclusive: actions at the time asked from are in the answer.
    @Test func gpodderNetSinceIsInclusive() throws {
        let server = try SyncDialectServer(actions: Self.actions(9))
        let changes = try syncServer(server, .gpodder).episodeActions(since: Self.base + 1)
        #expect(changes.actions.map(\.position) == [4, 5, 6, 7, 8, 9])
        #expect(changes.timestamp == Self.base + 2)
    }

    /// More actions in one second than a page holds cannot be read past: the second page brings
    /// nothing new and the reading stops instead of asking forever.
    @Test func aFullPageThatBringsNothingNewEndsThePaging() throws {
        let server = try SyncDialectServer(
            actions: Self.actions(9).map { $0.merging(["epoch": Self.base]) { $1 } }, pageSize: 5)
        let changes = try SyncServer(
            account: SyncAccount(
                server: server.baseURL, credentials: BasicCredentials(user: server.user, password: server.password),
                device: "d", dialect: .gpodder),
            policy: DownloadPolicy(userAgent: "podcli/test")
        ).episodeActions(since: 0, pageSize: 5)
        #expect(changes.actions.count == 5)
        #expect(try server.requests().count == 2)
    }

    @Test func anUploadGoesInBatchesOfAHundred() throws {
        let server = try SyncDialectServer(actions: [])
        let actions = (0..<250).map {
            EpisodeAction(
                podcast: Self.feed, episode: "https://example.com/\($0).mp3", kind: .download,
                timestamp: Self.base + $0)
        }
        _ = try syncServer(server, .gpodder).uploadEpisodeActions(actions)
        let posts = try server.requests()
        #expect(posts.map(\.path) == Array(repeating: "/api/2/episodes/alice.json", count: 3))
        let sizes = try posts.map {
            try #require(JSONSerialization.jsonObject(with: Data(($0.body ?? "").utf8)) as? [Any]).count
        }
        #expect(sizes == [100, 100, 50])
    }

    /// The Nextcloud app: its own paths, `since` passed as it is (the app's is exclusive), actions
    /// named upper case with an `id` and -1 for what is unknown, and no devices to register or link.
    @Test func nextcloudEndpointsAndBodies() throws {
        var download = Self.actions(4)[3]
        download["action"] = "download"
        download["guid"] = "four"
        download["started"] = -1
        download["position"] = -1
        download["total"] = -1
        let server = try SyncDialectServer(
            actions: Array(Self.actions(3)) + [download],
            subscriptions: ["add": [Self.feed], "remove": ["https://example.org/gone.rss"]])
        let nextcloud = syncServer(server, .nextcloud, path: "/")
        try nextcloud.registerDevice(caption: "podcli", type: "laptop")
        try nextcloud.linkDevices()
        #expect(try server.requests().isEmpty)

        let subscriptions = try nextcloud.subscriptionChanges(since: 0)
        #expect(subscriptions.added == [Self.feed] && subscriptions.removed == ["https://example.org/gone.rss"])
        let changes = try nextcloud.episodeActions(since: Self.base - 1)
        #expect(changes.actions.map(\.kind) == [.play, .play, .play, .download])
        #expect(changes.actions[0].position == 1 && changes.actions[0].started == 0 && changes.actions[0].total == 3600)
        #expect(changes.actions[3].guid == "four" && changes.actions[3].position == nil)
        #expect(changes.timestamp >= Self.base)
        #expect(subscriptions.timestamp > Self.base)

        _ = try nextcloud.uploadSubscriptionChanges(added: ["https://u:p@example.net/feed"], removed: [Self.feed])
        _ = try nextcloud.uploadEpisodeActions([
            EpisodeAction(
                podcast: "https://u:p@example.net/feed", episode: "https://example.net/1.mp3", guid: "one", kind: .play,
                timestamp: Self.base, started: 10, position: 20, total: nil),
            EpisodeAction(
                podcast: Self.feed, episode: "https://example.com/9.mp3", kind: .delete, timestamp: Self.base),
        ])
        let requests = try server.requests()
        #expect(
            requests.map { "\($0.method) \($0.path)" } == [
                "GET /index.php/apps/gpoddersync/subscriptions?since=0",
                "GET /index.php/apps/gpoddersync/episode_action?since=\(Self.base - 1)",
                "POST /index.php/apps/gpoddersync/subscription_change/create",
                "POST /index.php/apps/gpoddersync/episode_action/create",
            ])
        #expect(
            requests[2].body == #"{"add": ["https://example.net/feed"], "remove": ["https://example.com/feed.xml"]}"#)
        #expect(
            requests[3].body
                == #"[{"action": "play", "device": "podcli-laptop", "episode": "https://example.net/1.mp3", "guid": "one", "podcast": "https://example.net/feed", "position": 20, "started": 10, "timestamp": "2026-01-02T03:04:05", "total": -1}, {"action": "delete", "device": "podcli-laptop", "episode": "https://example.com/9.mp3", "podcast": "https://example.com/feed.xml", "position": -1, "started": -1, "timestamp": "2026-01-02T03:04:05", "total": -1}]"#
        )
    }

    /// The Nextcloud app sends every action in one answer: 1,001 of them are not a page to follow.
    @Test func nextcloudIsReadInOneRequest() throws {
        let server = try SyncDialectServer(actions: Self.actions(1001))
        #expect(try syncServer(server, .nextcloud).episodeActions(since: 0).actions.count == 1001)
        #expect(try server.requests().count == 1)
    }

    /// mygpo links the devices, then fails to write its answer (500): what the server says next
    /// decides, so the link holds and is not asked for again.
    @Test func linkingThatMygpoAnswersWith500ButDidIsDone() throws {
        let server = try SyncDialectServer(
            actions: [],
            devices: ["synchronized": [["desktop", "phone"]], "not-synchronized": ["podcli-laptop", "tv"]])
        let laptop = syncServer(server, .gpodder)
        try laptop.linkDevices()
        try laptop.linkDevices()
        let requests = try server.requests()
        #expect(requests.map(\.method) == ["GET", "POST", "GET", "GET"])
        #expect(
            requests[1].body
                == #"{"stop-synchronize": [], "synchronize": [["desktop", "phone", "podcli-laptop", "tv"]]}"#)
    }

    /// A reply that is not the API's is one `SyncServerError` each, saying what it was.
    @Test func repliesThatAreNotTheAPIsAreOneErrorEach() throws {
        let server = try SyncDialectServer(actions: Self.actions(2))
        for dialect in SyncDialect.allCases {
            let html = try #require(throws: SyncServerError.self) {
                try syncServer(server, dialect, path: "/html").episodeActions(since: 0)
            }
            guard case .badReply(_, let problem) = html else {
                Issue.record("\(html)")
                continue
            }
            #expect(problem == "it is not JSON (it is text/html)")
            #expect("\(html)".hasPrefix("http://127.0.0.1:\(server.port)/html/"))

            let shape = try #require(throws: SyncServerError.self) {
                try syncServer(server, dialect, path: "/shape").subscriptionChanges(since: 0)
            }
            #expect(
                shape
                    == .badReply(
                        url: "\(server.baseURL)/shape\(Self.subscriptionsPath(dialect))", problem: "it has no 'add'"))

            let time = try #require(throws: SyncServerError.self) {
                try syncServer(server, dialect, path: "/badtime").episodeActions(since: 0)
            }
            guard case .badReply(_, let timeProblem) = time else {
                Issue.record("\(time)")
                continue
            }
            #expect(timeProblem == "'actions.0.timestamp': the time 'the day before' cannot be read")

            let failure = try #require(throws: SyncServerError.self) {
                try syncServer(server, dialect, path: "/error").uploadSubscriptionChanges(
                    added: [Self.feed], removed: [])
            }
            guard case .api(.http(500, _, "Internal Server Error")) = failure else {
                Issue.record("\(failure)")
                continue
            }
            #expect(!failure.isAuthentication)

            let refused = try #require(throws: SyncServerError.self) {
                try syncServer(server, dialect, password: "wrong").episodeActions(since: 0)
            }
            #expect(refused.isAuthentication && !"\(refused)".contains("wrong"))
        }
    }

    static func subscriptionsPath(_ dialect: SyncDialect) -> String {
        dialect == .gpodder
            ? "/api/2/subscriptions/alice/podcli-laptop.json?since=0"
            : "/index.php/apps/gpoddersync/subscriptions?since=0"
    }
}
