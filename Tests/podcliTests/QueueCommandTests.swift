import Foundation
import TestSupport
import Testing

/// `podcli queue add|rm|ls|clear` end to end: the built podcli, a feed subscribed over the loopback
/// server, a real SQLite file.
@Suite struct QueueCommandTests {
    /// A library subscribed to "The Show" (Episodes 1 to 3, 30:00 each), with Episode 3 downloaded.
    struct Show {
        let w: FeedCommandTests.World
        /// Episode numbers by title number: `ids[1]` is Episode 1's.
        let ids: [Int: Int]

        init() throws {
            let world = try FeedCommandTests.World()
            let items = try (1...3).reversed().map { try world.audioItem($0).spec }
            let url = try world.serve("feed.xml", FeedCommandTests.rss(title: "The Show", items: items))
            let fetch = try world.t.run(["fetch", url, "--download", "1"])
            guard fetch.status == 0 else { throw TestSupportError("subscribing failed: \(fetch)") }
            var ids: [Int: Int] = [:]
            for episode in try world.episodes() {
                let title = try #require(episode["title"] as? String)
                ids[Int(title.dropFirst("Episode ".count))!] = try #require(episode["id"] as? Int)
            }
            self.w = world
            self.ids = ids
        }

        func run(_ arguments: [String]) throws -> ProcessResult { try w.t.run(arguments) }

        /// `queue ls --json`, decoded.
        func queue() throws -> [[String: Any]] {
            let result = try run(["queue", "ls", "--json"])
            guard result.status == 0 else { throw TestSupportError("queue ls --json failed: \(result)") }
            return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        }

        func queuedTitles() throws -> [String] { try queue().compactMap { $0["title"] as? String } }
    }

    @Test func anEmptyQueueSaysSo() throws {
        let show = try Show()
        // The downloaded one's length is its file's (1.4 s of silent frames), not the feed's 30:00.
        let ls = try show.run(["queue", "ls"])
        #expect(ls.status == 0, "\(ls)")
        #expect(ls.stdout == "The queue is empty.\n")
        #expect(ls.stderr.isEmpty)
        #expect(try show.queue().isEmpty)
    }

    @Test func addingQueuesInTheOrderGivenAndAQueuedEpisodeKeepsItsPlace() throws {
        let show = try Show()
        let (one, two, three) = (show.ids[1]!, show.ids[2]!, show.ids[3]!)

        let add = try show.run(["queue", "add", "\(one)", "\(three)"])
        #expect(add.status == 0, "\(add)")
        #expect(add.stdout == "Queued #\(one) Episode 1\nQueued #\(three) Episode 3\n")
        #expect(add.stderr.isEmpty)

        let again = try show.run(["queue", "add", "\(three)", "\(two)", "\(two)"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "#\(three) is already queued\nQueued #\(two) Episode 2\n")
        #expect(try show.queuedTitles() == ["Episode 1", "Episode 3", "Episode 2"])
    }

    @Test func listingShowsEachQueuedEpisodeInOrderAndWhetherItIsDownloaded() throws {
        let show = try Show()
        let (one, two, three) = (show.ids[1]!, show.ids[2]!, show.ids[3]!)
        #expect(try show.run(["queue", "add", "\(two)", "\(three)", "\(one)"]).status == 0)

        // The downloaded one's length is its file's (1.4 s of silent frames), not the feed's 30:00.
        let ls = try show.run(["queue", "ls"])
        #expect(ls.status == 0, "\(ls)")
        #expect(
            ls.stdout == """
                ID  STATE           LENGTH  FEED      TITLE
                \(two)   not downloaded  30:00   The Show  Episode 2
                \(three)   downloaded      0:01    The Show  Episode 3
                \(one)   not downloaded  30:00   The Show  Episode 1

                """)

        let queue = try show.queue()
        #expect(queue.map { $0["id"] as? Int } == [two, three, one])
        #expect(queue.map { $0["title"] as? String } == ["Episode 2", "Episode 3", "Episode 1"])
        #expect(queue.map { $0["state"] as? String } == ["new", "downloaded", "new"])
        #expect(queue.allSatisfy { $0["feed"] as? String == "The Show" })
        #expect(queue.map { ($0["duration"] as? Double).map { $0 >= 1800 } } == [true, false, true])
        #expect(queue.map { $0["size"] is Int } == [false, true, false], "only Episode 3 has a file")
    }

    @Test func episodesAreNamedByNumberOrUUIDPrefix() throws {
        let show = try Show()
        let uuid = try #require(try show.w.episodes().first { $0["id"] as? Int == show.ids[2] }?["uuid"] as? String)
        let add = try show.run(["queue", "add", String(uuid.prefix(30))])
        #expect(add.status == 0, "\(add)")
        #expect(add.stdout == "Queued #\(show.ids[2]!) Episode 2\n")
    }

    @Test func anUnknownEpisodeQueuesNothingAndExits66() throws {
        let show = try Show()
        let add = try show.run(["queue", "add", "\(show.ids[1]!)", "999"])
        #expect(add.status == 66, "\(add)")
        #expect(add.stdout.isEmpty)
        #expect(add.stderr == "podcli: no episode '999': give its number or a UUID prefix (see 'podcli list')\n")
        #expect(try show.queue().isEmpty)
    }

    @Test func removingTakesEpisodesOutOfTheQueueAndAnEpisodeNotQueuedExits66() throws {
        let show = try Show()
        let (one, two, three) = (show.ids[1]!, show.ids[2]!, show.ids[3]!)
        #expect(try show.run(["queue", "add", "\(one)", "\(two)", "\(three)"]).status == 0)

        let rm = try show.run(["queue", "rm", "\(two)"])
        #expect(rm.status == 0, "\(rm)")
        #expect(rm.stdout == "Removed #\(two) from the queue\n")
        #expect(rm.stderr.isEmpty)
        #expect(try show.queuedTitles() == ["Episode 1", "Episode 3"])

        let notQueued = try show.run(["queue", "rm", "\(two)"])
        #expect(notQueued.status == 66, "\(notQueued)")
        #expect(notQueued.stdout.isEmpty)
        #expect(notQueued.stderr == "podcli: #\(two) is not in the queue (see 'podcli queue ls')\n")

        // The queued ones are removed; the others are named on one line.
        let mixed = try show.run(["queue", "rm", "\(two)", "\(one)"])
        #expect(mixed.status == 66, "\(mixed)")
        #expect(mixed.stdout == "Removed #\(one) from the queue\n")
        #expect(mixed.stderr == "podcli: #\(two) is not in the queue (see 'podcli queue ls')\n")
        #expect(try show.queuedTitles() == ["Episode 3"])
        #expect(try show.w.episodes().count == 3, "the episodes stay in the library")
    }

    @Test func clearingEmptiesTheQueueAndSaysHowManyWereInIt() throws {
        let show = try Show()
        #expect(try show.run(["queue", "add", "\(show.ids[1]!)", "\(show.ids[3]!)"]).status == 0)
        let clear = try show.run(["queue", "clear"])
        #expect(clear.status == 0, "\(clear)")
        #expect(clear.stdout == "Cleared the queue (2 episodes)\n")
        #expect(try show.run(["queue", "ls"]).stdout == "The queue is empty.\n")
        #expect(try show.run(["queue", "clear"]).stdout == "Cleared the queue (0 episodes)\n")
        #expect(try show.w.episodes().count == 3)
    }

    @Test func removingAnEpisodeFromTheLibraryTakesItOutOfTheQueue() throws {
        let show = try Show()
        let (two, three) = (show.ids[2]!, show.ids[3]!)
        #expect(try show.run(["queue", "add", "\(three)", "\(two)"]).status == 0)
        let rm = try show.run(["rm", "\(three)"])
        #expect(rm.status == 0, "\(rm)")
        #expect(try show.queuedTitles() == ["Episode 2"])
    }

    @Test func theQueueIsQuietUnderQuietButItsJSONIsNot() throws {
        let show = try Show()
        let add = try show.run(["queue", "add", "-q", "\(show.ids[1]!)"])
        #expect(add.status == 0 && add.stdout.isEmpty && add.stderr.isEmpty, "\(add)")
        #expect(try show.run(["--quiet", "queue", "ls"]).stdout.isEmpty)
        let json = try show.run(["--quiet", "queue", "ls", "--json"])
        #expect(json.stdout.contains("\"title\" : \"Episode 1\""), "\(json)")
    }

    @Test func aQueueCommandLineMistakeIsAUsageError() throws {
        let show = try Show()
        let bare = try show.run(["queue"])
        #expect(bare.status == 64)
        #expect(
            bare.stderr == """
                podcli: missing subcommand
                Usage: podcli queue <subcommand>
                See 'podcli queue --help' for more information.

                """)
        let noID = try show.run(["queue", "add"])
        #expect(noID.status == 64)
        #expect(noID.stderr.hasPrefix("podcli: missing expected argument '<id>'\nUsage: podcli queue add"))
        let unknown = try show.run(["queue", "ad", "1"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("podcli: unknown command 'ad' (did you mean 'add'?)\n"))
        #expect(try show.queue().isEmpty)
    }
}
