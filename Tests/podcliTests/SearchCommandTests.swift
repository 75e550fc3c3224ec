import Foundation
import TestSupport
import Testing

/// `podcli search` and the podcast links `fetch` reads, end to end: the built podcli, real
/// libcurl, a loopback directory answering as the iTunes Search and Lookup APIs and Podcast Index
/// do (`directory-url` and `podcastindex-url` pointed at it), and feeds on the fault server.
@Suite struct SearchCommandTests {
    let w: FeedCommandTests.World
    let directory: DirectoryServer
    let dailyFeed: String
    let otherFeed: String

    init() throws {
        w = try FeedCommandTests.World()
        dailyFeed = try w.serve("daily.xml", FeedCommandTests.rss(title: "The Daily", items: [w.item(1), w.item(2)]))
        otherFeed = try w.serve("other.xml", FeedCommandTests.rss(title: "Daily Other", items: [w.item(3)]))
        directory = try DirectoryServer(
            apple: [
                DirectoryServer.appleEntry(
                    id: 1_200_361_736, title: "The Daily", author: "The New York Times", feed: dailyFeed,
                    episodes: 2256, released: "2026-11-30T10:45:00Z", genre: "Daily News"),
                DirectoryServer.appleEntry(id: 42, title: "Daily Apple-only", author: "Someone", feed: nil),
                DirectoryServer.appleEntry(
                    id: 7, title: "Daily \u{1B}]0;owned\u{7}Other", author: "Other\u{1B}[2J People", feed: otherFeed),
            ],
            podcastIndex: [
                DirectoryServer.podcastIndexEntry(
                    id: 920_666, title: "Daily Tech", author: "Tech People", feed: "https://tech.example.com/rss"),
                // Apple's too: listed once.
                DirectoryServer.podcastIndexEntry(id: 75, title: "The Daily", author: "NYT", feed: dailyFeed),
            ])
        try config(["directory-url = \(directory.baseURL)"])
    }

    private func config(_ lines: [String]) throws {
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: w.t.home.path + "/config", atomically: true, encoding: .utf8)
    }

    private func search(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try w.t.run(["search"] + arguments + ["--json"])
        guard result.status == 0 else { throw TestSupportError("search failed: \(result)") }
        return try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]] ?? []
    }

    @Test func aSearchTableThenFetchOfAResultSubscribesToItAndTheNextSearchMarksItFollowed() throws {
        let table = try w.t.run(["search", "daily"])
        #expect(table.status == 0, "\(table)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)
        #expect(lines.first?.hasPrefix("#  FOLLOWING  EPISODES  LAST        GENRE       AUTHOR") == true)
        #expect(lines[1].hasPrefix("1             2256      2026-11-30  Daily News  The New York Times"))
        #expect(lines[1].hasSuffix("The Daily"))
        // What the directory sent reaches the terminal without its control characters.
        #expect(!table.stdout.contains("\u{1B}") && !table.stdout.contains("\u{7}"))
        #expect(lines[2].hasPrefix("2 ") && lines[2].contains("Other [2J People"))
        #expect(table.stderr.contains("1 more result without a feed (Apple's app only) left out"))
        #expect(table.stderr.contains("'podcli fetch --result N' subscribes to result N."))

        let fetch = try w.t.run(["fetch", "--result", "2"])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout == "Subscribed to #1 Daily Other: 1 episode, the newest marked new\n")
        #expect(try w.feeds().map { $0["url"] as? String } == [otherFeed])

        let again = try search(["daily"])
        #expect(again.map { $0["following"] as? Bool } == [false, true])
        #expect(again.first?["feed_url"] as? String == dailyFeed)
        #expect(again.first?["last_release"] as? Int == 1_796_035_500)
        #expect(again.first?["episodes"] as? Int == 2256 && again.first?["directory"] as? String == "apple")
        #expect(again.first?["id"] as? Int == 1_200_361_736 && again.first?["number"] as? Int == 1)
        // The number names this search's result 1, whatever the library's feed #1 is.
        let first = try w.t.run(["fetch", "--result", "1"])
        #expect(first.stdout == "Subscribed to #2 The Daily: 2 episodes, the newest marked new\n", "\(first)")
    }

    @Test func aBareNumberStillNamesAFeedAndAResultPastTheSearchIsNotFound() throws {
        let none = try w.t.run(["fetch", "--result", "1"])
        #expect(
            none.status == 66 && none.stderr == "podcli: no search to take a result of: 'podcli search WORDS' first\n")
        #expect(try w.t.run(["fetch", dailyFeed]).status == 0)
        _ = try search(["daily"])
        let past = try w.t.run(["fetch", "--result", "3"])
        #expect(past.status == 66 && past.stderr == "podcli: the search for 'daily' found 2 podcasts, not 3\n")
        // "1" is the subscribed feed #1, refreshed, not the search's first result.
        let bare = try w.t.run(["fetch", "1"])
        #expect(bare.status == 0 && bare.stdout.contains("The Daily"), "\(bare)")
        let both = try w.t.run(["fetch", "1", "--result", "1"])
        #expect(both.status == 64 && both.stderr.contains("give a URL or --result N, not both"))
    }

    @Test(arguments: [
        "https://podcasts.apple.com/us/podcast/the-daily/id1200361736",
        "https://podcasts.apple.com/podcast/id1200361736?i=1000650000000",
        "https://itunes.apple.com/WebObjects/MZStore.woa/wa/viewPodcast?id=1200361736",
    ])
    func anApplePodcastsLinkSubscribesToTheFeedItsLookupGives(link: String) throws {
        let fetch = try w.t.run(["fetch", link])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout == "Subscribed to #1 The Daily: 2 episodes, the newest marked new\n")
        #expect(try w.feeds().map { $0["url"] as? String } == [dailyFeed])
        #expect(try directory.requests().last?.path == "/lookup?id=1200361736")
    }

    @Test func anAppleOnlyPodcastOrAnUnknownIDIsOneLine() throws {
        let appleOnly = try w.t.run(["fetch", "https://podcasts.apple.com/us/podcast/x/id42"])
        #expect(appleOnly.status == 65)
        #expect(
            appleOnly.stderr
                == "podcli: Apple lists 'Daily Apple-only' (id42) without a feed: it plays in Apple's app only\n")
        let unknown = try w.t.run(["fetch", "https://podcasts.apple.com/us/podcast/x/id99"])
        #expect(unknown.status == 66 && unknown.stderr == "podcli: Apple knows no podcast id99: check the link\n")
        #expect(try w.feeds().isEmpty)
    }

    @Test func podcastSchemesSubscribeToTheFeedTheyWrap() throws {
        let rest = dailyFeed.dropFirst("http://".count)
        for (n, link) in ["feed:\(dailyFeed)", "podcast://\(dailyFeed)", "pcast://http//\(rest)"].enumerated() {
            let fetch = try w.t.run(["fetch", link])
            #expect(fetch.status == 0, "\(link): \(fetch)")
            // The first subscribes, the others refresh the same feed.
            #expect(fetch.stdout.contains(n == 0 ? "Subscribed to #1 The Daily" : "#1 The Daily"), "\(link)")
        }
        #expect(try w.feeds().map { $0["url"] as? String } == [dailyFeed])
    }

    @Test func podcastIndexIsAskedTooWithItsKeyAndTheSecretCommandsFirstLine() throws {
        try config([
            "directory-url = \(directory.baseURL)", "podcastindex-url = \(directory.podcastIndexURL)",
            "podcastindex-key = \(directory.key)",
            "podcastindex-secret-command = printf '%s\\nnot this line\\n' '\(directory.secret)'",
        ])
        let found = try search(["daily", "--limit", "5"])
        #expect(found.map { $0["title"] as? String } == ["The Daily", "Daily \u{1B}]0;owned\u{7}Other", "Daily Tech"])
        #expect(found.map { $0["directory"] as? String } == ["apple", "apple", "podcastindex"])
        #expect(try directory.requests().last?.path == "/api/1.0/search/byterm?q=daily&max=5")

        // A wrong secret: Apple's results, and a warning naming what to check.
        try config([
            "directory-url = \(directory.baseURL)", "podcastindex-url = \(directory.podcastIndexURL)",
            "podcastindex-key = \(directory.key)", "podcastindex-secret-command = echo wrong",
        ])
        let refused = try w.t.run(["search", "daily", "--json"])
        #expect(refused.status == 0)
        #expect(refused.stderr.contains("warning: Podcast Index refused the key (401)"))
        #expect(!refused.stderr.contains(directory.secret))

        try config([
            "directory-url = \(directory.baseURL)", "podcastindex-key = \(directory.key)",
            "podcastindex-secret-command = exit 3",
        ])
        let noSecret = try w.t.run(["search", "daily"])
        #expect(noSecret.status == 69)
        #expect(noSecret.stderr == "podcli: podcastindex-secret-command gave no secret: it exited with status 3\n")
    }

    @Test(arguments: [
        ("html", 65, "sent an HTML page, not a directory's answer: check directory-url"),
        ("forbidden", 69, "Apple Podcasts refused the search (403 Forbidden)"),
        ("empty", 66, "no podcast matches 'daily': try other words"),
        ("nofeed", 66, "no podcast matching 'daily' has a feed (3 results play in Apple's app only)"),
        ("miscount", 65, "counted 4 results but sent 3: the answer is damaged, try again"),
        ("notjson", 65, "did not answer as a podcast directory does (not JSON)"),
    ])
    func aBadAnswerIsOneLineAndAnExitCode(mode: String, status: Int32, words: String) throws {
        try config(["directory-url = \(directory.faulty(mode))"])
        let result = try w.t.run(["search", "daily"])
        #expect(result.status == status, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("podcli: ") && result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
