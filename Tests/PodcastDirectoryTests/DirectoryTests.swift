import Downloads
import Foundation
import PodcastDirectory
import TestSupport
import Testing

/// Real libcurl against a loopback directory answering as the iTunes Search and Lookup APIs and
/// Podcast Index document it: the fields podcli shows are read from their documented names,
/// Podcast Index's signature is checked by the server, and every bad answer is one
/// `DirectoryError` a user can act on.
@Suite struct DirectoryTests {
    let server: DirectoryServer
    let client = APIClient(policy: DownloadPolicy(userAgent: "podcli/test"))

    init() throws {
        server = try DirectoryServer(
            apple: [
                DirectoryServer.appleEntry(
                    id: 1_200_361_736, title: "The Daily", author: "The New York Times",
                    feed: "https://feeds.example.com/daily", episodes: 2256, released: "2026-11-30T10:45:00Z",
                    genre: "Daily News"),
                DirectoryServer.appleEntry(
                    id: 42, title: "Daily Apple-only Show", author: "Someone", feed: nil),
                DirectoryServer.appleEntry(
                    id: 7, title: "Rock & Roll = Daily?", author: "R\u{1B}[31mR", feed: "http://feeds.example.com/rr"),
            ],
            podcastIndex: [
                DirectoryServer.podcastIndexEntry(
                    id: 920_666, title: "Daily Tech", author: "Tech People", feed: "https://tech.example.com/rss",
                    episodes: 310, newest: 1_764_500_000),
                DirectoryServer.podcastIndexEntry(
                    id: 5, title: "Daily Nothing", author: "Nobody", feed: "https://nothing.example.com/rss",
                    categories: []),
            ])
    }

    private var apple: AppleDirectory { AppleDirectory(baseURL: server.baseURL) }

    private func podcastIndex(secret: String? = nil, baseURL: String? = nil) -> PodcastIndex {
        PodcastIndex(
            baseURL: baseURL ?? server.podcastIndexURL, key: server.key, secret: secret ?? server.secret)
    }

    // MARK: - Apple

    @Test func appleSearchReadsTheDocumentedFieldsAndCountsTheResultsWithoutAFeed() throws {
        let found = try apple.search("daily", limit: 10, with: client)
        #expect(found.withoutFeed == 1)
        #expect(
            found.podcasts == [
                DirectoryPodcast(
                    source: .apple, id: 1_200_361_736, title: "The Daily", author: "The New York Times",
                    episodeCount: 2256, lastRelease: try Date("2026-11-30T10:45:00Z", strategy: .iso8601),
                    genre: "Daily News", feedURL: "https://feeds.example.com/daily"),
                DirectoryPodcast(
                    source: .apple, id: 7, title: "Rock & Roll = Daily?", author: "R\u{1B}[31mR", episodeCount: 12,
                    lastRelease: try Date("2026-11-30T10:00:00Z", strategy: .iso8601), genre: "Technology",
                    feedURL: "http://feeds.example.com/rr"),
            ])
        let request = try #require(try server.requests().last)
        #expect(request.path == "/search?media=podcast&entity=podcast&term=daily&limit=10")
        #expect(request.headers["user-agent"] == "podcli/test")
    }

    @Test func whatAUserTypesStaysOneTermWhateverItHolds() throws {
        let found = try apple.search("rock & roll = daily?", limit: 5, with: client)
        #expect(found.podcasts.map(\.id) == [7])
        #expect(
            try server.requests().last?.path
                == "/search?media=podcast&entity=podcast&term=rock%20%26%20roll%20%3D%20daily%3F&limit=5")
    }

    @Test func theLimitIsAsked() throws {
        #expect(try apple.search("daily", limit: 1, with: client).podcasts.map(\.id) == [1_200_361_736])
    }

    @Test func aLookupGivesThePodcastOfTheID() throws {
        let podcast = try apple.lookup(id: 1_200_361_736, with: client)
        #expect(podcast.feedURL == "https://feeds.example.com/daily" && podcast.title == "The Daily")
        #expect(try server.requests().last?.path == "/lookup?id=1200361736")
    }

    @Test func aLookupOfAnAppleOnlyPodcastOrAnUnknownIDIsAnError() throws {
        #expect(throws: DirectoryError.noFeed(id: 42, title: "Daily Apple-only Show")) {
            try apple.lookup(id: 42, with: client)
        }
        #expect(throws: DirectoryError.unknownID(99)) { try apple.lookup(id: 99, with: client) }
        #expect(
            DirectoryError.noFeed(id: 42, title: "Daily Apple-only Show").description
                == "Apple lists 'Daily Apple-only Show' (id42) without a feed: it plays in Apple's app only")
    }

    // MARK: - Podcast Index

    @Test func podcastIndexSearchIsSignedAsDocumentedAndReadsItsFields() throws {
        let now = Date()
        let found = try podcastIndex().search("daily", limit: 10, with: client, now: now)
        #expect(found.withoutFeed == 0)
        #expect(
            found.podcasts == [
                DirectoryPodcast(
                    source: .podcastIndex, id: 920_666, title: "Daily Tech", author: "Tech People", episodeCount: 310,
                    lastRelease: Date(timeIntervalSince1970: 1_764_500_000), genre: "Business",
                    feedURL: "https://tech.example.com/rss"),
                DirectoryPodcast(
                    source: .podcastIndex, id: 5, title: "Daily Nothing", author: "Nobody", episodeCount: 40,
                    lastRelease: Date(timeIntervalSince1970: 1_764_000_000), genre: nil,
                    feedURL: "https://nothing.example.com/rss"),
            ])
        let request = try #require(try server.requests().last)
        #expect(request.path == "/api/1.0/search/byterm?q=daily&max=10")
        let date = String(Int(now.timeIntervalSince1970))
        #expect(request.headers["x-auth-key"] == server.key)
        #expect(request.headers["x-auth-date"] == date)
        #expect(request.headers["authorization"] == Self.sha1Hex(server.key + server.secret + date))
        #expect(request.headers["user-agent"] == "podcli/test")
    }

    @Test func aWrongSecretOrAStaleDateIsRefusedAsAKeyProblem() throws {
        #expect(throws: DirectoryError.keyRefused(status: 401)) {
            try podcastIndex(secret: "not the secret").search("daily", limit: 10, with: client)
        }
        #expect(throws: DirectoryError.keyRefused(status: 401)) {
            try podcastIndex().search("daily", limit: 10, with: client, now: Date().addingTimeInterval(-3600))
        }
        #expect(
            DirectoryError.keyRefused(status: 401).description
                == "Podcast Index refused the key (401): check podcastindex-key and that "
                + "podcastindex-secret-command prints its secret")
    }

    // MARK: - Bad answers

    @Test func anHTMLPageIsNoAnswer() throws {
        let url = server.faulty("html")
        #expect(throws: DirectoryError.htmlPage(url: "\(url)/search?media=podcast&entity=podcast&term=daily&limit=5")) {
            try AppleDirectory(baseURL: url).search("daily", limit: 5, with: client)
        }
        #expect(throws: DirectoryError.htmlPage(url: "\(url)/lookup?id=7")) {
            try AppleDirectory(baseURL: url).lookup(id: 7, with: client)
        }
    }

    @Test func a403SaysWhoRefused() throws {
        let url = server.faulty("forbidden")
        let search = "\(url)/search?media=podcast&entity=podcast&term=daily&limit=5"
        #expect(throws: DirectoryError.refused(directory: "Apple Podcasts", status: 403, url: search)) {
            try AppleDirectory(baseURL: url).search("daily", limit: 5, with: client)
        }
        #expect(
            DirectoryError.refused(directory: "Apple Podcasts", status: 403, url: search).description
                == "Apple Podcasts refused the search (403 Forbidden) at \(search): try again later, or check directory-url"
        )
        #expect(throws: DirectoryError.keyRefused(status: 403)) {
            try podcastIndex(baseURL: url + "/api/1.0").search("daily", limit: 5, with: client)
        }
    }

    @Test func anEmptyResultIsNothingFound() throws {
        #expect(throws: DirectoryError.nothingFound(term: "daily", withoutFeed: 0)) {
            try AppleDirectory(baseURL: server.faulty("empty")).search("daily", limit: 5, with: client)
        }
        #expect(throws: DirectoryError.nothingFound(term: "zebra", withoutFeed: 0)) {
            try apple.search("zebra", limit: 5, with: client)
        }
        #expect(throws: DirectoryError.nothingFound(term: "daily", withoutFeed: 0)) {
            try podcastIndex(baseURL: server.faulty("empty") + "/api/1.0").search("daily", limit: 5, with: client)
        }
        #expect(throws: DirectoryError.unknownID(7)) {
            try AppleDirectory(baseURL: server.faulty("empty")).lookup(id: 7, with: client)
        }
        #expect(
            DirectoryError.nothingFound(term: "zebra", withoutFeed: 0).description
                == "no podcast matches 'zebra': try other words")
    }

    @Test func resultsWithoutAFeedAreCountedAndNoneLeftIsNothingFound() throws {
        #expect(throws: DirectoryError.nothingFound(term: "daily", withoutFeed: 3)) {
            try AppleDirectory(baseURL: server.faulty("nofeed")).search("daily", limit: 5, with: client)
        }
        #expect(throws: DirectoryError.nothingFound(term: "daily", withoutFeed: 2)) {
            try podcastIndex(baseURL: server.faulty("nofeed") + "/api/1.0").search("daily", limit: 5, with: client)
        }
        #expect(throws: DirectoryError.noFeed(id: 7, title: "Rock & Roll = Daily?")) {
            try AppleDirectory(baseURL: server.faulty("nofeed")).lookup(id: 7, with: client)
        }
        #expect(
            DirectoryError.nothingFound(term: "daily", withoutFeed: 3).description
                == "no podcast matching 'daily' has a feed (3 results play in Apple's app only)")
    }

    @Test func aCountThatDisagreesWithTheResultsIsADamagedAnswer() throws {
        let url = server.faulty("miscount")
        let search = "\(url)/search?media=podcast&entity=podcast&term=daily&limit=5"
        #expect(throws: DirectoryError.inconsistentCount(url: search, said: 4, held: 3)) {
            try AppleDirectory(baseURL: url).search("daily", limit: 5, with: client)
        }
        #expect(
            throws: DirectoryError.inconsistentCount(
                url: "\(url)/api/1.0/search/byterm?q=daily&max=5", said: 3, held: 2)
        ) {
            try podcastIndex(baseURL: url + "/api/1.0").search("daily", limit: 5, with: client)
        }
        #expect(
            DirectoryError.inconsistentCount(url: search, said: 3, held: 2).description
                == "\(search) counted 3 results but sent 2: the answer is damaged, try again")
    }

    @Test func anAnswerNotOfTheDocumentedShapeSaysWhatIsWrong() throws {
        let notJSON = server.faulty("notjson")
        #expect(throws: DirectoryError.unreadable(url: "\(notJSON)/lookup?id=7", detail: "not JSON")) {
            try AppleDirectory(baseURL: notJSON).lookup(id: 7, with: client)
        }
        let wrongType = server.faulty("wrongtype")
        #expect(
            throws: DirectoryError.unreadable(url: "\(wrongType)/lookup?id=7", detail: "'resultCount' is not a number")
        ) {
            try AppleDirectory(baseURL: wrongType).lookup(id: 7, with: client)
        }
        let byterm = "\(wrongType)/api/1.0/search/byterm?q=daily&max=5"
        #expect(throws: DirectoryError.unreadable(url: byterm, detail: "'count' is not a number")) {
            try podcastIndex(baseURL: wrongType + "/api/1.0").search("daily", limit: 5, with: client)
        }
    }

    @Test func podcastIndexDecliningIsItsOwnWords() throws {
        #expect(throws: DirectoryError.declined(directory: "Podcast Index", reason: "Too many requests")) {
            try podcastIndex(baseURL: server.faulty("declined") + "/api/1.0").search("daily", limit: 5, with: client)
        }
    }

    @Test func anUnreachableDirectoryIsTheExchangesError() throws {
        let closed = try ClosedLoopbackPort()
        do {
            _ = try AppleDirectory(baseURL: "http://127.0.0.1:\(closed.port)").search("daily", limit: 5, with: client)
            Issue.record("no error")
        } catch {
            guard case .exchange("Apple Podcasts", .unreachable) = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    /// SHA-1 as the server computes it, by Python's hashlib (not the code under test).
    static func sha1Hex(_ text: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import hashlib,sys; print(hashlib.sha1(sys.argv[1].encode()).hexdigest())", text,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        process.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
