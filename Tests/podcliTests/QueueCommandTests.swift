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
                #  ID  STATE           LENGTH  LEFT   FEED      TITLE
                1  \(two)   not downloaded  30:00   30:00  The Show  Episode 2
                2  \(three)   downloaded      0:01    0:01   The Show  Episode 3
                3  \(one)   not downloaded  30:00   30:00  The Show  Episode 1
                Time left: 1:00:01 (3 episodes)

                """)

        let queue = try show.queue()
        #expect(queue.map { $0["id"] as? Int } == [two, three, one])
        #expect(queue.map { $0["title"] as? String } == ["Episode 2", "Episode 3", "Episode 1"])
        #expect(queue.map { $0["state"] as? String } == ["new", "downloaded", "new"])
        #expect(queue.allSatisfy { $0["feed"] as? String == "The Show" })
        #expect(queue.map { ($0["duration"] as? Double).map { $0 >= 1800 } } == [true, false, true])
        #expect(queue.map { $0["size"] is Int } == [false, true, false], "only Episode 3 has a file")
    }

    @Test func addingNextPutsEpisodesAheadOfTheRestAndMovesAQueuedOne() throws {
        let show = try Show()
        let (one, two, three) = (show.ids[1]!, show.ids[2]!, show.ids[3]!)
        #expect(try show.run(["queue", "add", "\(one)", "\(two)"]).status == 0)

        let next = try show.run(["queue", "add", "--next", "\(three)", "\(two)"])
        #expect(next.status == 0, "\(next)")
        #expect(next.stdout == "Queued #\(three) Episode 3 to play next\nMoved #\(two) Episode 2 to play next\n")
        #expect(next.stderr.isEmpty)
        #expect(try show.queuedTitles() == ["Episode 3", "Episode 2", "Episode 1"])

        let unknown = try show.run(["queue", "add", "--next", "\(one)", "999"])
        #expect(unknown.status == 66, "\(unknown)")
        #expect(try show.queuedTitles() == ["Episode 3", "Episode 2", "Episode 1"], "nothing moved")
    }

    @Test func movingPutsAnEpisodeAtAPlaceAndTheOthersMakeRoom() throws {
        let show = try Show()
        let (one, two, three) = (show.ids[1]!, show.ids[2]!, show.ids[3]!)
        #expect(try show.run(["queue", "add", "\(one)", "\(two)", "\(three)"]).status == 0)

        let move = try show.run(["queue", "move", "\(three)", "1"])
        #expect(move.status == 0, "\(move)")
        #expect(move.stdout == "Moved #\(three) Episode 3 from 3 to 1 in the queue\n")
        #expect(move.stderr.isEmpty)
        #expect(try show.queuedTitles() == ["Episode 3", "Episode 1", "Episode 2"])
        #expect(
            try show.run(["queue", "move", "\(three)", "2"]).stdout
                == "Moved #\(three) Episode 3 from 1 to 2 in the queue\n")
        #expect(try show.run(["queue", "move", "\(three)", "2"]).stdout == "#\(three) is already at 2 in the queue\n")
        #expect(try show.queuedTitles() == ["Episode 1", "Episode 3", "Episode 2"])
        // The # column is the place to move to.
        #expect(
            try show.run(["queue", "ls"]).stdout.split(separator: "\n").dropFirst().prefix(3).map { $0.prefix(1) } == [
                "1", "2", "3",
            ])
    }

    @Test func aMoveOutOfTheQueueOrPastItsEndChangesNothing() throws {
        let show = try Show()
        let (one, two, three) = (show.ids[1]!, show.ids[2]!, show.ids[3]!)
        #expect(try show.run(["queue", "add", "\(one)", "\(two)"]).status == 0)

        let past = try show.run(["queue", "move", "\(one)", "3"])
        #expect(past.status == 64, "\(past)")
        #expect(past.stdout.isEmpty)
        #expect(past.stderr == "podcli: no position 3 in a queue of 2 episodes: give 1 to 2\n")
        for position in ["0", "-1", "two"] {
            let bad = try show.run(["queue", "move", "\(one)", position])
            #expect(bad.status == 64, "\(position): \(bad)")
            #expect(
                bad.stderr.hasPrefix(
                    "podcli: invalid value '\(position)' for '<position>': expected a position, 1 or more\n"
                        + "Usage: podcli queue move"), "\(bad)")
        }
        let notQueued = try show.run(["queue", "move", "\(three)", "1"])
        #expect(notQueued.status == 66, "\(notQueued)")
        #expect(notQueued.stderr == "podcli: #\(three) is not in the queue (see 'podcli queue ls')\n")
        let unknown = try show.run(["queue", "move", "999", "1"])
        #expect(unknown.status == 66, "\(unknown)")
        #expect(unknown.stderr == "podcli: no episode '999': give its number or a UUID prefix (see 'podcli list')\n")
        #expect(try show.queuedTitles() == ["Episode 1", "Episode 2"])
    }

    @Test func theTimeLeftIsEachEpisodesAtItsFeedsSpeed() throws {
        let w = try FeedCommandTests.World()
        var long = w.item(1, in: "slow")
        long.duration = "1:00:00"
        let slow = try w.serve("slow.xml", FeedCommandTests.rss(title: "Slow Show", items: [long]))
        var short = w.item(1, in: "fast")
        short.duration = "20:00"
        let fast = try w.serve(
            "fast.xml", FeedCommandTests.rss(title: "Fast Show", items: [w.item(2, in: "fast"), short]))
        for url in [slow, fast] { #expect(try w.t.run(["fetch", url]).status == 0) }
        let set = try w.t.run(["config", "set", "speed", "2", "--feed", "Fast"])
        #expect(set.status == 0, "\(set)")
        let episodes = try w.episodes()
        let ids = try [("Slow Show", "Episode 1"), ("Fast Show", "Episode 1"), ("Fast Show", "Episode 2")].map {
            feed, title in
            "\(try #require(episodes.first { $0["feed"] as? String == feed && $0["title"] as? String == title }?["id"] as? Int))"
        }
        #expect(try w.t.run(["queue", "add", ids[0], ids[1], ids[2]]).status == 0)

        // 60:00 at 1x, then 20:00 and 30:00 at 2x.
        let ls = try w.t.run(["queue", "ls"])
        #expect(ls.status == 0, "\(ls)")
        #expect(
            ls.stdout == """
                #  ID  STATE           LENGTH   SPEED  LEFT     FEED       TITLE
                1  \(ids[0])   not downloaded  1:00:00  1x     1:00:00  Slow Show  Episode 1
                2  \(ids[1])   not downloaded  20:00    2x     10:00    Fast Show  Episode 1
                3  \(ids[2])   not downloaded  30:00    2x     15:00    Fast Show  Episode 2
                Time left: 1:25:00 (3 episodes)

                """)
        let json =
            try JSONSerialization.jsonObject(with: try w.t.run(["queue", "ls", "--json"]).stdoutData)
            as? [[String: Any]]
        #expect(json?.map { $0["speed"] as? Double } == [1, 2, 2])
        #expect(json?.map { $0["left"] as? Double } == [3_600, 600, 900])
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
