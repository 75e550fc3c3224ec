import Downloads
import Foundation
import TestSupport
import Testing

@testable import GPodderSync

/// `SyncServer` against a real mygpo-API server (gpodder-fastapi-router, `GPodderServer`): what
/// goes up reads back through the server's own API, as another device and as gPodder and
/// AntennaPod read it.
@Suite(.requires(GPodderServer.isInstalled, "the gpodder server's venv (scripts/install-deps.sh)"))
struct SyncServerGPodderTests {
    let server: GPodderServer
    let policy = DownloadPolicy(userAgent: "podcli/test")

    init() throws { server = try GPodderServer() }

    private func syncServer(device: String, password: String? = nil) -> SyncServer {
        SyncServer(
            account: SyncAccount(
                server: server.baseURL + "/",
                credentials: BasicCredentials(user: server.user, password: password ?? server.password),
                device: device, dialect: .gpodder),
            policy: policy)
    }

    /// What the server holds, read with a bare `APIClient`: the check is the server's API, not ours.
    private func read(_ path: String) throws -> Any {
        let reply = try APIClient(policy: policy).perform(
            APIRequest(
                .get, server.url("/api/2/" + path),
                credentials: BasicCredentials(user: server.user, password: server.password)))
        return try JSONSerialization.jsonObject(with: Data(reply.body))
    }

    @Test func registerAndLinkTwoDevicesThenSubscriptionsTravelBetweenThem() throws {
        let laptop = syncServer(device: "podcli-laptop")
        let phone = syncServer(device: "phone")
        try laptop.registerDevice(caption: "podcli on laptop", type: "laptop")
        try phone.registerDevice(caption: "Phone", type: "mobile")
        let devices = try #require(try read("devices/alice.json") as? [[String: Any]])
        #expect(
            devices.map { "\($0["id"] ?? "") \($0["caption"] ?? "") \($0["type"] ?? "")" }.sorted()
                == ["phone Phone mobile", "podcli-laptop podcli on laptop laptop"])

        try laptop.linkDevices()
        let groups = try #require(try read("sync-devices/alice.json") as? [String: Any])
        #expect(groups["synchronized"] as? [[String]] == [["phone", "podcli-laptop"]])
        try laptop.linkDevices()  // already linked: no change
        try phone.linkDevices()
        #expect(
            (try read("sync-devices/alice.json") as? [String: Any])?["synchronized"] as? [[String]]
                == [["phone", "podcli-laptop"]])

        // A third device joins the group the other two are in.
        let desktop = syncServer(device: "desktop")
        try desktop.registerDevice(caption: "Desktop", type: "desktop")
        try desktop.linkDevices()
        #expect(
            (try read("sync-devices/alice.json") as? [String: Any])?["synchronized"] as? [[String]]
                == [["desktop", "phone", "podcli-laptop"]])

        // Up from the laptop, credentials stripped; down on the phone, since 0 and since the
        // answer before the upload, even in the same second (this server's since is exclusive).
        let feed = "https://example.com/feed.xml"
        let before = try phone.subscriptionChanges(since: 0)
        #expect(before.added.isEmpty && before.removed.isEmpty)
        let sent = try laptop.uploadSubscriptionChanges(
            added: ["https://listener:secret@example.com/feed.xml", "http://Example.NET/Feed"], removed: [])
        #expect(sent.rewrites == [URLRewrite(from: "http://Example.NET/Feed", to: "http://example.net/Feed")])
        let down = try phone.subscriptionChanges(since: before.timestamp)
        #expect(Set(down.added) == [feed, "http://example.net/Feed"] && down.removed.isEmpty)
        #expect(down.timestamp >= sent.timestamp - 1)

        // A removal travels too (this server removes only the rows of the device that sends it).
        _ = try laptop.uploadSubscriptionChanges(added: [], removed: [feed])
        let removed = try phone.subscriptionChanges(since: down.timestamp)
        #expect(removed.removed == [feed] && !removed.added.contains(feed))
        #expect(!"\(try read("subscriptions/alice/phone.json?since=0"))".contains("secret"))
    }

    @Test func episodeActionsRoundTripWithEveryFieldGPodderAndAntennaPodRead() throws {
        let laptop = syncServer(device: "podcli-laptop")
        try laptop.registerDevice(caption: "podcli", type: "laptop")
        let feed = "https://example.com/feed.xml"
        let actions = [
            EpisodeAction(
                podcast: "https://listener:secret@example.com/feed.xml",
                episode: "https://listener:secret@example.com/1.mp3", guid: "episode-1", kind: .play,
                timestamp: 1_767_323_045, started: 15, position: 120, total: 1800),
            EpisodeAction(
                podcast: feed, episode: "https://example.com/2.mp3", guid: "episode-2", kind: .play,
                timestamp: 1_767_323_046, started: nil, position: 60, total: nil, device: "phone"),
            EpisodeAction(
                podcast: feed, episode: "https://example.com/3.mp3", kind: .download, timestamp: 1_767_323_047),
            EpisodeAction(podcast: feed, episode: "https://example.com/4.mp3", kind: .delete, timestamp: 1_767_323_048),
            EpisodeAction(podcast: feed, episode: "https://example.com/5.mp3", kind: .new, timestamp: 1_767_323_049),
        ]
        let receipt = try laptop.uploadEpisodeActions(actions)
        #expect(receipt.rewrites.isEmpty && receipt.timestamp > 1_767_323_049)

        // As the server's API gives them to gPodder and AntennaPod: UTC seconds, play fields on
        // play only, -1 for what is unknown, the device named.
        let stored = try #require(
            (try read("episodes/alice.json?since=0") as? [String: Any])?["actions"] as? [[String: Any]])
        let first = try #require(stored.first)
        #expect(first["podcast"] as? String == feed && first["episode"] as? String == "https://example.com/1.mp3")
        #expect(first["guid"] as? String == "episode-1" && first["action"] as? String == "play")
        #expect(first["timestamp"] as? String == "2026-01-02T03:04:05" && first["device"] as? String == "podcli-laptop")
        #expect(first["started"] as? Int == 15 && first["position"] as? Int == 120 && first["total"] as? Int == 1800)
        #expect(stored[1]["started"] as? Int == -1 && stored[1]["total"] as? Int == -1)
        #expect(stored[1]["device"] as? String == "phone")
        #expect(stored[2]["action"] as? String == "download" && stored[2]["position"] is NSNull)
        #expect(stored.map { $0["action"] as? String } == ["play", "play", "download", "delete", "new"])

        // And back through SyncServer, whole, the credentials gone.
        var expected = actions
        expected[0].podcast = feed
        expected[0].episode = "https://example.com/1.mp3"
        for index in expected.indices where expected[index].device == nil { expected[index].device = "podcli-laptop" }
        let down = try laptop.episodeActions(since: 0)
        #expect(down.actions == expected)
        #expect(down.timestamp == 1_767_323_049)  // the newest action's time, as mygpo answers
        // since is inclusive: the boundary action comes again.
        #expect(try laptop.episodeActions(since: 1_767_323_049).actions == [expected[4]])
    }

    @Test func aWrongPasswordIsAnAuthenticationErrorWithoutThePassword() throws {
        let wrong = syncServer(device: "podcli-laptop", password: "not the password")
        let error = try #require(throws: SyncServerError.self) { try wrong.subscriptionChanges(since: 0) }
        #expect(error.isAuthentication)
        #expect("\(error)".contains("alice") && !"\(error)".contains("not the password"))
        #expect(throws: SyncServerError.self) { try wrong.registerDevice(caption: "x", type: "laptop") }
    }

    @Test func anUploadOfManyActionsGoesInBatchesAndAllArrive() throws {
        let laptop = syncServer(device: "podcli-laptop")
        let actions = (0..<(SyncServer.uploadBatchSize * 2 + 5)).map {
            EpisodeAction(
                podcast: "https://example.com/feed.xml", episode: "https://example.com/\($0).mp3", kind: .play,
                timestamp: 1_700_000_000 + $0, started: 0, position: $0 + 1, total: 3600)
        }
        _ = try laptop.uploadEpisodeActions(actions)
        let down = try laptop.episodeActions(since: 0)
        #expect(down.actions.map(\.episode) == actions.map(\.episode))
    }
}
