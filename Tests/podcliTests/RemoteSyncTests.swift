import Foundation
import TestSupport
import Testing

/// `podcli sync` with a gpodder.net-API server: two podcli libraries as two devices of one
/// account on a real server (gpodder-fastapi-router, `GPodderServer`), feeds on the loopback
/// fault server, the built podcli. What one device does reaches the other in one `sync` each.
@Suite(.requires(GPodderServer.isInstalled, "the gpodder server's venv (scripts/install-deps.sh)"))
struct RemoteSyncTests {
    /// One podcli library as one device of the server's account.
    struct Device {
        let t: CLITestCase
        let name: String
        /// The password in the environment (else through gpodder-password-command).
        let environment: [String: String]

        enum Password { case environment, command }

        init(_ name: String, of server: GPodderServer, password: Password, world: FeedCommandTests.World? = nil) throws
        {
            t = try world?.t ?? CLITestCase()
            self.name = name
            var config = """
                gpodder-server = \(server.baseURL)
                gpodder-user = \(server.user)
                gpodder-device = \(name)
                download = none

                """
            switch password {
            case .environment:
                environment = ["PODCLI_GPODDER_PASSWORD": server.password]
            case .command:
                environment = [:]
                let file = try t.home.write(server.password + "\n", to: "gpodder-password")
                config += "gpodder-password-command = cat '\(file.path)'\n"
            }
            _ = try t.home.write(config, to: "config")
        }

        func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> ProcessResult {
            try t.run(arguments, environment: environment, timeout: timeout)
        }

        /// `podcli sync`, which must succeed.
        @discardableResult
        func sync() throws -> ProcessResult {
            let sync = try run(["sync"])
            guard sync.status == 0 else { throw TestSupportError("\(name): sync failed: \(sync)") }
            return sync
        }

        /// The subscriptions' URLs and titles.
        func feeds() throws -> [String: String] {
            let result = try run(["feeds", "--json"])
            guard result.status == 0 else { throw TestSupportError("feeds failed: \(result)") }
            let feeds = try JSONSerialization.jsonObject(with: result.stdoutData) as! [[String: Any]]
            return Dictionary(uniqueKeysWithValues: feeds.map { ($0["url"] as! String, $0["title"] as! String) })
        }

        /// The episode whose enclosure is `url`, as `list --json` shows it.
        func episode(_ url: String) throws -> [String: Any] {
            let result = try run(["list", "--all", "--json"])
            let episodes = try JSONSerialization.jsonObject(with: result.stdoutData) as! [[String: Any]]
            return try #require(episodes.first { $0["url"] as? String == url }, "\(name) has no episode of \(url)")
        }

        /// Where `url`'s episode stands: its position in seconds, and whether it is played.
        func position(_ url: String) throws -> Double {
            let id = try episode(url)["id"] as! Int
            return try t.show("\(id)")["position"] as! Double
        }

        /// Plays `url`'s episode for `seconds` on ALSA's null device: a stop the server learns of.
        func play(_ url: String, from start: Double = 0, for seconds: Double) throws {
            let id = try episode(url)["id"] as! Int
            let play = try run(["play", "\(id)", "--from", "\(start)", "--for", "\(seconds)", "--device", "null"])
            guard play.status == 0 else { throw TestSupportError("play failed: \(play)") }
        }
    }

    /// Shows whose episodes are 99 s of MPEG audio (3,800 frames), served by the fault server:
    /// long enough that a stop at 0:41 is not within 30 s of the end (which a server's position
    /// marks played).
    struct Shows {
        let w: FeedCommandTests.World
        let audio = CLITestCase.audioBytes(10 + 3_800 * 417)

        init() throws { w = try FeedCommandTests.World() }

        /// Serves the show `name` with `count` episodes and returns its URL; episode n's
        /// enclosure is `enclosure(name, n)`, its guid "NAME-n".
        @discardableResult
        func serve(_ name: String, episodes count: Int = 2) throws -> String {
            let items = (1...count).reversed().map { n -> FeedCommandTests.Item in
                var item = w.item(n, in: name)
                item.url = enclosure(name, n)
                item.length = audio.count
                return item
            }
            for n in 1...count { try audio.write(to: w.directory.appendingPathComponent("\(name)-\(n).mp3")) }
            return try w.serve("\(name).xml", FeedCommandTests.rss(title: name.capitalized, items: items))
        }

        func enclosure(_ name: String, _ n: Int) -> String { w.url("\(name)-\(n).mp3") }
    }

    /// The server's own account of what was uploaded: every episode action, since the start.
    static func actions(on server: GPodderServer) throws -> [[String: Any]] {
        let body = try server.get("/api/2/episodes/\(server.user).json?since=0")
        return (try JSONSerialization.jsonObject(with: body) as! [String: Any])["actions"] as! [[String: Any]]
    }

    // MARK: - Two devices

    @Test func aSubscriptionAPositionAndAnUnsubscribeTravelBothWaysInOneSyncEach() throws {
        let server = try GPodderServer()
        let shows = try Shows()
        let laptop = try Device("laptop", of: server, password: .environment, world: shows.w)
        let desktop = try Device("desktop", of: server, password: .command)
        let news = try shows.serve("news")
        let talk = try shows.serve("talk")

        // A subscription and a position, each way, in one sync: the feed is read before the
        // positions are merged.
        #expect(try laptop.run(["fetch", news]).status == 0)
        try laptop.play(shows.enclosure("news", 2), from: 40, for: 1.5)
        try laptop.sync()
        let arrived = try desktop.sync()
        // The feed is read inside the exchange (its new episode told by its title), then the positions merged.
        #expect(
            arrived.stdout.hasPrefix(
                "#1 News: 1 new\nExchanged with \(server.baseURL): 1 subscribed, 1 position, nothing to send\n"),
            "\(arrived)")
        #expect(try desktop.feeds() == [news: "News"])
        #expect(try desktop.position(shows.enclosure("news", 2)) == 41)

        #expect(try desktop.run(["fetch", talk]).status == 0)
        try desktop.play(shows.enclosure("talk", 1), from: 20, for: 1.5)
        try desktop.sync()
        try laptop.sync()
        #expect(try laptop.feeds() == [news: "News", talk: "Talk"])
        #expect(try laptop.position(shows.enclosure("talk", 1)) == 21)

        // An unsubscribe, each way (by the device that subscribed: see the README).
        #expect(try laptop.run(["unsubscribe", news]).status == 0)
        try laptop.sync()
        let gone = try desktop.sync()
        #expect(gone.stdout.hasPrefix("Exchanged with \(server.baseURL): 1 unsubscribed, nothing to send\n"), "\(gone)")
        #expect(try desktop.feeds() == [talk: "Talk"])
        #expect(try desktop.run(["unsubscribe", talk]).status == 0)
        try desktop.sync()
        try laptop.sync()
        #expect(try laptop.feeds().isEmpty)
        #expect(try desktop.feeds().isEmpty)
    }

    @Test func aNewerPositionWinsAndAnOlderOneNeverComesBack() throws {
        let server = try GPodderServer()
        let shows = try Shows()
        let laptop = try Device("laptop", of: server, password: .environment, world: shows.w)
        let desktop = try Device("desktop", of: server, password: .environment)
        let news = try shows.serve("news", episodes: 1)
        let episode = shows.enclosure("news", 1)
        #expect(try laptop.run(["fetch", news]).status == 0)
        try laptop.sync()
        try desktop.sync()

        // The laptop stops at 0:42 and does not sync; the desktop stops at 0:11 a second later, and does.
        try laptop.play(episode, from: 40, for: 2.5)
        let stopped = Int(Date().timeIntervalSince1970)
        #expect(waitUntil(timeout: 5, interval: 0.05) { Int(Date().timeIntervalSince1970) > stopped })
        try desktop.play(episode, from: 10, for: 1.5)
        try desktop.sync()

        // The desktop's is newer: the laptop resumes from it, and never sends its older stop.
        try laptop.sync()
        #expect(try laptop.position(episode) == 11)
        try desktop.sync()
        try laptop.sync()
        #expect(try desktop.position(episode) == 11.5 && laptop.position(episode) == 11)
        let positions = try Self.actions(on: server).filter { $0["action"] as? String == "play" }.map {
            $0["position"] as? Int
        }
        #expect(positions == [11])
    }

    @Test func anUploadInterruptedByKillingTheServerIsCompletedByTheNextSyncWithNothingTwice() throws {
        // The server holds the second upload of episode actions (the second 100) until killed.
        let server = try GPodderServer(holdingUpload: 2)
        let w = try FeedCommandTests.World()
        let items = (1...250).map { w.item($0, in: "daily") }
        let feed = try w.serve("daily.xml", FeedCommandTests.rss(title: "Daily", items: items))
        let laptop = try Device("laptop", of: server, password: .environment, world: w)
        #expect(try laptop.run(["fetch", feed]).status == 0)
        #expect(try laptop.run(["mark", "played", "--feed", "1"]).status == 0)

        let sync = try laptop.t.podcli.start(
            ["--home", laptop.t.home.path, "sync"], environment: laptop.environment)
        #expect(server.waitUntilHolding())
        server.kill()
        let interrupted = try sync.waitUntilExit(timeout: 60)
        #expect(interrupted.status == 69, "\(interrupted)")
        #expect(interrupted.stderr.hasPrefix("podcli: sync server: "), "\(interrupted)")
        #expect(interrupted.stderr.split(separator: "\n").count == 1, "\(interrupted)")
        // The local sync ran all the same.
        #expect(interrupted.stdout.contains("Synced 1 feed"), "\(interrupted)")
        let status = try laptop.run(["remote", "status"])
        #expect(status.stdout.contains("Waiting to go up: 150 plays\n"), "\(status)")
        #expect(status.stdout.contains("Last error: "), "\(status)")

        let restarted = try GPodderServer(continuing: server)
        #expect(try Self.actions(on: restarted).count == 100)
        let completed = try laptop.sync()
        #expect(completed.stdout.hasPrefix("Exchanged with \(server.baseURL): 150 sent\n"), "\(completed)")
        let actions = try Self.actions(on: restarted)
        #expect(actions.count == 250)
        #expect(Set(actions.map { $0["episode"] as! String }) == Set(items.map(\.url)))
        let done = try laptop.run(["remote", "status"])
        #expect(done.stdout.contains("Waiting to go up: nothing\n") && !done.stdout.contains("Last error"), "\(done)")
    }

    @Test func whatPodcliUploadsReadsBackWithTheFieldsGPodderAndAntennaPodExpect() throws {
        let server = try GPodderServer()
        let shows = try Shows()
        let laptop = try Device("laptop", of: server, password: .command, world: shows.w)
        let news = try shows.serve("news", episodes: 1)
        // The listener's credentials for the feed stay theirs: the server gets the URL without.
        let withCredentials = news.replacingOccurrences(of: "http://", with: "http://listener:feedsecret@")
        #expect(try laptop.run(["fetch", withCredentials, "--download", "all"]).status == 0)
        try laptop.play(shows.enclosure("news", 1), from: 40, for: 1.5)
        let before = Int(Date().timeIntervalSince1970)
        try laptop.sync()

        let subscriptions =
            try JSONSerialization.jsonObject(
                with: try server.get("/api/2/subscriptions/\(server.user)/laptop.json?since=0")) as! [String: Any]
        #expect(subscriptions["add"] as? [String] == [news])
        // Downloaded, then played.
        let actions = try Self.actions(on: server)
        #expect(actions.map { $0["action"] as? String } == ["download", "play"], "\(actions)")
        for action in actions {
            #expect(action["podcast"] as? String == news)
            #expect(action["episode"] as? String == shows.enclosure("news", 1))
            #expect(action["guid"] as? String == "news-1")
            #expect(action["device"] as? String == "laptop")
        }
        let play = try #require(actions.last)
        // Whole seconds of media: from 0:40 to 0:41 of 1:39.
        #expect(
            play["started"] as? Int == 40 && play["position"] as? Int == 41 && play["total"] as? Int == 99, "\(play)")
        // UTC, YYYY-MM-DDTHH:MM:SS, when the listener stopped.
        let timestamp = try #require(play["timestamp"] as? String)
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        format.timeZone = TimeZone(identifier: "UTC")
        let at = try #require(format.date(from: timestamp), "\(timestamp)")
        #expect(Int(at.timeIntervalSince1970) <= before && Int(at.timeIntervalSince1970) > before - 60)

        let status = try laptop.run(["remote", "status", "--json"])
        let report = try JSONSerialization.jsonObject(with: status.stdoutData) as! [String: Any]
        #expect(report["server"] as? String == server.baseURL && report["device"] as? String == "laptop")
        #expect(report["api"] as? String == "gpodder" && report["waiting"] as? [String: Int] == [:])
        #expect((report["last_exchange"] as? Int).map { $0 >= before } == true, "\(report)")
    }

    @Test func anotherDeviceIdIsRegisteredAnewAndLinkingOffKeepsADeviceApart() throws {
        let server = try GPodderServer()
        let shows = try Shows()
        let laptop = try Device("laptop", of: server, password: .environment, world: shows.w)
        let news = try shows.serve("news", episodes: 1)
        #expect(try laptop.run(["fetch", news]).status == 0)
        try laptop.sync()
        // The same library as another device: registered, and given the account's subscriptions from the start.
        #expect(try laptop.run(["config", "set", "gpodder-device", "laptop-2"]).status == 0)
        try laptop.sync()
        let devices =
            try JSONSerialization.jsonObject(
                with: try server.get("/api/2/devices/\(server.user).json")) as! [[String: Any]]
        #expect(Set(devices.map { $0["id"] as! String }) == ["laptop", "laptop-2"])
        for device in devices {
            #expect(
                (device["caption"] as? String)?.hasPrefix("podcli on ") == true
                    && device["type"] as? String == "desktop")
        }

        let apart = try Device("desktop", of: server, password: .environment)
        _ = try apart.t.home.write(
            try String(contentsOfFile: apart.t.home.path + "/config", encoding: .utf8) + "gpodder-link-devices = off\n",
            to: "config")
        let sync = try apart.sync()
        #expect(sync.stdout.hasPrefix("Exchanged with \(server.baseURL): nothing to send\n"), "\(sync)")
        #expect(try apart.feeds().isEmpty)
        let groups =
            try JSONSerialization.jsonObject(
                with: try server.get("/api/2/sync-devices/\(server.user).json")) as! [String: Any]
        #expect(!(groups["synchronized"] as! [[String]]).joined().contains("desktop"), "\(groups)")
    }

    // MARK: - Refusals

    @Test func aWrongPasswordIsExit77WithOneLineAndNoPasswordInIt() throws {
        let server = try GPodderServer()
        let shows = try Shows()
        let laptop = try Device("laptop", of: server, password: .environment, world: shows.w)
        #expect(try laptop.run(["fetch", try shows.serve("news", episodes: 1)]).status == 0)
        let refusal =
            "podcli: sync server: \(server.baseURL) refused the user 'alice' or its password: check gpodder-user and "
            + "gpodder-password-command (or PODCLI_GPODDER_PASSWORD)\n"

        let wrong = try laptop.t.run(["sync"], environment: ["PODCLI_GPODDER_PASSWORD": "not-the-password-42"])
        #expect(wrong.status == 77, "\(wrong)")
        #expect(wrong.stderr == refusal)
        #expect(!(wrong.stdout + wrong.stderr).contains("not-the-password-42"))
        // The feeds were refreshed all the same.
        #expect(wrong.stdout.contains("Synced 1 feed"), "\(wrong)")

        let config = """
            gpodder-server = \(server.baseURL)
            gpodder-user = alice
            gpodder-password-command = echo not-the-password-42

            """
        _ = try laptop.t.home.write(config, to: "config")
        let byCommand = try laptop.t.run(["sync"])
        #expect(byCommand.status == 77 && byCommand.stderr == refusal, "\(byCommand)")
        let log = try String(contentsOfFile: laptop.t.home.path + "/sync.log", encoding: .utf8)
        #expect(!log.contains("not-the-password-42") && log.contains("refused the user 'alice'"))
        let status = try laptop.t.run(["remote", "status"])
        #expect(status.stdout.contains("refused the user 'alice'") && !status.stdout.contains("not-the-password"))

        _ = try laptop.t.home.write(
            config.replacingOccurrences(of: "echo not-the-password-42", with: "exit 3"), to: "config")
        let failing = try laptop.t.run(["sync"])
        #expect(failing.status == 69, "\(failing)")
        #expect(
            failing.stderr == "podcli: sync server: gpodder-password-command gave no secret: it exited with status 3\n")
    }
}
