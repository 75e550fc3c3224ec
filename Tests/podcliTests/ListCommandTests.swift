import EpisodeStore
import Foundation
import TestSupport
import Testing

/// `podcli list`: a page at a time, the note of what is left, every episode on request, output
/// that streams and stops quietly when its reader goes, and search.
@Suite struct ListCommandTests {
    /// A library of one feed of `count` episodes, Episode 1 the oldest.
    private func library(_ count: Int, title: String = "Long Show") throws -> FeedCommandTests.World {
        let w = try FeedCommandTests.World()
        let items = (1...count).reversed().map { w.item($0) }
        let url = try w.serve("feed.xml", FeedCommandTests.rss(title: title, items: items))
        let fetch = try w.t.run(["fetch", url])
        #expect(fetch.status == 0, "\(fetch)")
        return w
    }

    private func titles(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").dropFirst().map { line in
            String(line[line.range(of: "Episode ")!.lowerBound...])
        }
    }

    @Test func aPageIsTheNewestFiftyAndEndsWithWhatIsLeft() throws {
        let w = try library(120)
        let page = try w.t.run(["list"])
        #expect(page.status == 0)
        #expect(titles(page.stdout) == (71...120).reversed().map { "Episode \($0)" })
        #expect(page.stdout.hasPrefix("ID "))
        #expect(page.stderr == "70 more episodes (add --offset 50 for the next 50, --all for every one)\n")

        let next = try w.t.run(["list", "--offset", "50", "-n", "10"])
        #expect(titles(next.stdout) == (61...70).reversed().map { "Episode \($0)" })
        #expect(next.stderr == "60 more episodes (add --offset 60 for the next 10, --all for every one)\n")

        let last = try w.t.run(["list", "--offset", "100"])
        #expect(titles(last.stdout) == (1...20).reversed().map { "Episode \($0)" })
        #expect(last.stderr.isEmpty)

        let past = try w.t.run(["list", "--offset", "500"])
        #expect(past.status == 0 && past.stdout.isEmpty)
        #expect(past.stderr == "Nothing past --offset 500: 120 episodes in all.\n")

        let quiet = try w.t.run(["list", "--quiet", "--json"])
        #expect(quiet.stderr.isEmpty)
    }

    @Test func allListsEveryEpisodeInOrderWithNoNote() throws {
        let w = try library(120)
        let all = try w.t.run(["list", "--all"])
        #expect(all.status == 0)
        #expect(titles(all.stdout) == (1...120).reversed().map { "Episode \($0)" })
        #expect(all.stderr.isEmpty)
        #expect(try w.episodes(["--all"]).count == 120)
        let json = try w.episodes()
        #expect(json.count == 50)
        #expect(json.first?["title"] as? String == "Episode 120")
        #expect(try w.episodes(["--offset", "110"]).compactMap { $0["title"] as? String }.last == "Episode 1")
    }

    @Test func pagingOptionsAreChecked() throws {
        let w = try library(3)
        for arguments in [["--limit", "0"], ["-n", "x"], ["--offset", "-1"], ["--all", "--limit", "5"]] {
            let result = try w.t.run(["list"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("podcli: "), "\(arguments): \(result)")
        }
    }

    /// `podcli list --all | head -n 2`: the listing stops when head has read its lines (a closed
    /// pipe, EPIPE), with status 0 and nothing on stderr, long before it would have ended.
    @Test func aListingIntoAClosedPipeEndsQuietly() throws {
        let w = try library(3000)
        let script = """
            "$0" --home "$1" list --all 2>"$1/list.err" | head -n 2 >"$1/list.out"
            echo "${PIPESTATUS[0]}"
            """
        let run = try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/bash"),
            arguments: ["-c", script, w.t.podcli.executableURL.path, w.t.home.path],
            environment: w.t.podcli.childEnvironment()
        ).waitUntilExit()
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "0\n", "podcli's exit status after its reader left: \(run.stdout)")
        #expect(try String(contentsOfFile: w.t.home.path + "/list.err", encoding: .utf8).isEmpty)
        let head = try String(contentsOfFile: w.t.home.path + "/list.out", encoding: .utf8)
        #expect(head.split(separator: "\n").count == 2)
        #expect(head.hasSuffix("Episode 3000\n"), "\(head)")
    }

    @Test func aSearchFindsWordsWithoutAccentsBestFirst() throws {
        let w = try FeedCommandTests.World()
        var first = w.item(1)
        first.title = "Travel notes"
        first.description = "<p>A week in <b>Kraków</b></p>"
        var second = w.item(2)
        second.title = "Kraków by night"
        let url = try w.serve("feed.xml", FeedCommandTests.rss(title: "Trips", items: [second, first, w.item(3)]))
        #expect(try w.t.run(["fetch", url]).status == 0)
        #expect(
            try w.episodes(["-s", "krakow"]).compactMap { $0["title"] as? String } == [
                "Kraków by night", "Travel notes",
            ])
        #expect(try w.episodes(["-s", "trips"]).count == 3)
        let none = try w.t.run(["list", "-s", "lisbon"])
        #expect(none.status == 0 && none.stdout.isEmpty)
        #expect(none.stderr == "No episodes match.\n")
    }

    /// A word said in a transcript finds the episode, with the time to play it from; past the
    /// ranked limit the same episodes are listed newest first, and the listing says so.
    @Test func aSearchFindsWhatWasSaidAndTheTimeToPlayItFrom() throws {
        let w = try FeedCommandTests.World()
        var described = w.item(1)
        described.description = "<p>Airships over Kraków</p>"
        var again = w.item(3)
        again.description = "Kraków again"
        let url = try w.serve("feed.xml", FeedCommandTests.rss(title: "Trips", items: [again, w.item(2), described]))
        #expect(try w.t.run(["fetch", url]).status == 0)
        let ids = Dictionary(
            uniqueKeysWithValues: try w.episodes(["--all"]).map { ($0["title"] as! String, $0["id"] as! Int) })
        // The transcript as the store keeps it (PodcliKit sets it when it fetches one).
        try Library(directory: w.t.home.path).setTranscript(
            [
                TranscriptSegment(startMilliseconds: 0, text: "Welcome."),
                TranscriptSegment(
                    startMilliseconds: 3_725_400, speaker: "Guest", text: "We flew to Krako\u{301}w by airship."),
            ], of: ids["Episode 2"]!)

        let table = try w.t.run(["list", "-s", "krakow airship"])
        #expect(table.status == 0 && table.stderr.isEmpty, "\(table)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("FOUND") == true, "\(table.stdout)")
        #expect(
            lines.dropFirst().map { $0.contains("Episode 1") && $0.contains(" text ") } == [true, false],
            "\(table.stdout)")
        #expect(
            lines.last?.contains(" 1:02:05 ") == true && lines.last?.contains("Episode 2") == true, "\(table.stdout)")
        let found = try w.episodes(["-s", "krakow airship"]).map { $0["found"] as? [String: Any] }
        #expect(found.map { $0?["texts"] as? Bool } == [true, false])
        #expect(found.map { $0?["transcript_at"] as? Double } == [nil, 3725.4])
        // The time is one `play --from` takes.
        let play = try w.t.run(["play", "--from", "1:02:05", "--help"])
        #expect(play.status == 0)

        let newest = try w.t.run(["list", "-s", "krakow", "-n", "1"], environment: ["PODCLI_SEARCH_RANK_LIMIT": "1"])
        #expect(newest.status == 0)
        #expect(newest.stdout.contains("Episode 3") && !newest.stdout.contains("Episode 1"), "\(newest.stdout)")
        #expect(
            newest.stderr == """
                More than 1 episode match, newest first: add words to rank them.
                More may match (add --offset 1 for the next 1, --all for every one)

                """, "\(newest.stderr)")
        let all = try w.t.run(["list", "-s", "krakow", "--json"], environment: ["PODCLI_SEARCH_RANK_LIMIT": "1"])
        let titles = try (JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as! [[String: Any]]).map {
            $0["title"] as! String
        }
        #expect(titles == ["Episode 3", "Episode 2", "Episode 1"])
        let ranked = try w.episodes(["-s", "krakow"]).map { $0["title"] as! String }
        #expect(Set(ranked) == Set(titles) && ranked.last == "Episode 2", "\(ranked)")
    }

    /// A word typed 30,000 times lists what the word once lists, at once (issue 22: minutes and
    /// gigabytes); more than 32 different words are refused in one line, exit 64.
    @Test func aRepeatedWordSearchesOnceAndTooManyWordsAreRefused() throws {
        let w = try library(60)
        let once = try w.t.run(["list", "-s", "ep"])
        #expect(once.status == 0 && titles(once.stdout).count == 50, "\(once)")
        // 90 KB: one argument may be at most 128 KiB.
        let repeated = try w.t.run(["list", "-s", Array(repeating: "Ep", count: 30_000).joined(separator: " ")])
        #expect(repeated.status == 0, "\(repeated)")
        #expect(repeated.stdout == once.stdout && repeated.stderr == once.stderr)
        let many = try w.t.run(["list", "-s", (1...40).map { "word\($0)" }.joined(separator: " ")])
        #expect(many.status == 64, "\(many)")
        #expect(many.stdout.isEmpty)
        #expect(
            many.stderr == "podcli: the search is too long (40 different words, 231 characters): "
                + "give at most 32 words and 1000 characters\n")
    }
}
