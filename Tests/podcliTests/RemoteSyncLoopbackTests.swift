import Foundation
import TestSupport
import Testing

// `podcli sync` and `remote status` where no gpodder.net-API server runs: a closed port, and the
// loopback dialect server.

/// `podcli sync` when the sync server is down: no server needed.
@Suite struct RemoteSyncOfflineTests {
    @Test func aServerDownIsExit69InOneLineAndTheFeedsAreRefreshedAllTheSame() throws {
        let closed = try ClosedLoopbackPort()
        let w = try FeedCommandTests.World()
        let feed = try w.serve("news.xml", FeedCommandTests.rss(title: "News", items: [w.item(1)]))
        #expect(try w.t.run(["fetch", feed]).status == 0)
        _ = try w.serve("news.xml", FeedCommandTests.rss(title: "News", items: [w.item(2), w.item(1)]))
        _ = try w.t.home.write(
            "gpodder-server = http://127.0.0.1:\(closed.port)\ngpodder-user = alice\ndownload = none\n", to: "config")
        let environment = ["PODCLI_GPODDER_PASSWORD": "correct horse battery"]

        let sync = try w.t.run(["sync"], environment: environment)
        #expect(sync.status == 69, "\(sync)")
        #expect(
            sync.stderr.hasPrefix("podcli: sync server: could not reach http://127.0.0.1:\(closed.port)/"), "\(sync)")
        #expect(sync.stderr.split(separator: "\n").count == 1, "\(sync)")
        #expect(sync.stdout.contains("Synced 1 feed, 1 new"), "\(sync)")
        #expect(try w.episodes().count == 2)
        let status = try w.t.run(["remote", "status"])
        #expect(
            status.stdout.contains("Last exchange: never\n") && status.stdout.contains("could not reach"), "\(status)")

        // --no-remote: the feeds alone.
        let local = try w.t.run(["sync", "--no-remote"], environment: environment)
        #expect(local.status == 0 && local.stderr.isEmpty, "\(local)")
    }

    @Test func remoteStatusSaysWhatIsMissingAndWhatWaits() throws {
        let w = try FeedCommandTests.World()
        let feed = try w.serve("news.xml", FeedCommandTests.rss(title: "News", items: [w.item(1)]))
        #expect(try w.t.run(["fetch", feed]).status == 0)
        let none = try w.t.run(["remote", "status"])
        #expect(
            none.stdout
                == "No sync server: set gpodder-server, gpodder-user and gpodder-password-command "
                + "('podcli config set KEY VALUE')\nWaiting to go up: 1 subscribed\n", "\(none)")
        _ = try w.t.home.write(
            "gpodder-server = https://cloud.example/\ngpodder-user = alice\ngpodder-api = nextcloud\n"
                + "gpodder-device = laptop\n", to: "config")
        let nextcloud = try w.t.run(["remote", "status"])
        #expect(
            nextcloud.stdout
                == """
                Server: https://cloud.example/ (nextcloud API)
                User: alice
                Device: laptop
                Last exchange: never
                Waiting to go up: 1 subscribed
                Note: the Nextcloud gPodder Sync app keeps only play actions from its version 3.13.3 on: downloads, \
                deletions and episodes marked unplayed are sent but not kept

                """, "\(nextcloud)")
        // Without a user, sync says which setting is missing, and still refreshes.
        _ = try w.t.home.write("gpodder-server = https://cloud.example/\ndownload = none\n", to: "config")
        let sync = try w.t.run(["sync"])
        #expect(sync.status == 64, "\(sync)")
        #expect(
            sync.stderr
                == "podcli: sync server: gpodder-server is set but gpodder-user is not ('podcli config set "
                + "gpodder-user VALUE')\n")
        #expect(sync.stdout.contains("Synced 1 feed"))
    }
}

/// `podcli sync` with the servers no test can run here, answered by a loopback server with the
/// bodies their documentation gives (`SyncDialectServer`): the Nextcloud gPodder Sync app, and
/// a server failing with 500.
@Suite struct RemoteSyncDialectTests {
    /// A library whose sync server is `url`, speaking `api`.
    static func library(_ t: CLITestCase, server url: String, api: String) throws {
        _ = try t.home.write(
            "gpodder-server = \(url)\ngpodder-user = alice\ngpodder-api = \(api)\ngpodder-device = laptop\n"
                + "download = none\n", to: "config")
    }

    static let password = ["PODCLI_GPODDER_PASSWORD": "correct horse battery"]

    @Test func theNextcloudAppBringsASubscriptionAndAPositionAndTakesWhatWaits() throws {
        let shows = try RemoteSyncTests.Shows()
        let news = try shows.serve("news", episodes: 1)
        let episode = shows.enclosure("news", 1)
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        format.timeZone = TimeZone(identifier: "UTC")
        let played = Date().addingTimeInterval(-60)
        let server = try SyncDialectServer(
            actions: [
                [
                    "podcast": news, "episode": episode, "guid": "news-1", "action": "play", "device": "phone",
                    "timestamp": format.string(from: played), "epoch": Int(played.timeIntervalSince1970),
                    "started": 10, "position": 45, "total": 99,
                ]
            ], subscriptions: ["add": [news], "remove": []])
        let t = shows.w.t
        try Self.library(t, server: server.baseURL, api: "nextcloud")

        let sync = try t.run(["sync"], environment: Self.password)
        #expect(sync.status == 0, "\(sync)")
        #expect(
            sync.stdout.hasPrefix(
                "#1 News: 1 new\nExchanged with \(server.baseURL): 1 subscribed, 1 position, nothing to send\n"),
            "\(sync)")
        let listed =
            try JSONSerialization.jsonObject(with: try t.run(["list", "--json"]).stdoutData) as! [[String: Any]]
        #expect(try t.show("\(listed[0]["id"] as! Int)")["position"] as? Double == 45)

        let talk = try shows.serve("talk", episodes: 1)
        #expect(try t.run(["fetch", talk]).status == 0)
        let sent = try t.run(["sync"], environment: Self.password)
        #expect(sent.stdout.hasPrefix("Exchanged with \(server.baseURL): 1 sent\n"), "\(sent)")
        let upload = try #require(
            try server.requests().last { $0.path == "/index.php/apps/gpoddersync/subscription_change/create" })
        let body = try JSONSerialization.jsonObject(with: Data(upload.body!.utf8)) as! [String: [String]]
        #expect(body == ["add": [talk], "remove": []])
        // No devices on Nextcloud: nothing registered or linked.
        #expect(try server.requests().allSatisfy { $0.path.hasPrefix("/index.php/apps/gpoddersync/") })
        let status = try t.run(["remote", "status"])
        #expect(status.stdout.contains("Note: the Nextcloud gPodder Sync app keeps only play actions"), "\(status)")
    }

    @Test func aServerAnswering500IsExit69InOneLineAndTheFeedsAreRefreshedAllTheSame() throws {
        let server = try SyncDialectServer(actions: [])
        let w = try FeedCommandTests.World()
        let feed = try w.serve("news.xml", FeedCommandTests.rss(title: "News", items: [w.item(1)]))
        #expect(try w.t.run(["fetch", feed]).status == 0)
        _ = try w.serve("news.xml", FeedCommandTests.rss(title: "News", items: [w.item(2), w.item(1)]))
        // Every path under /error answers 500.
        try Self.library(w.t, server: server.baseURL + "/error", api: "gpodder")

        let sync = try w.t.run(["sync"], environment: Self.password)
        #expect(sync.status == 69, "\(sync)")
        #expect(sync.stderr.hasPrefix("podcli: sync server: \(server.baseURL)/error/api/2/"), "\(sync)")
        #expect(sync.stderr.contains(" 500 ") && sync.stderr.split(separator: "\n").count == 1, "\(sync)")
        #expect(sync.stdout.contains("Synced 1 feed, 1 new"), "\(sync)")
        let status = try w.t.run(["remote", "status"])
        #expect(status.stdout.contains("Waiting to go up: 1 subscribed\n"), "\(status)")
    }
}
