import Foundation
import TestSupport
import Testing

/// The feed commands end to end (`fetch FEED_URL`, `refresh`, `feeds`, `list`, `unsubscribe`,
/// `import`, `export`): the built podcli, real libcurl, the loopback fault server and a real
/// SQLite file. Each test serves its feeds from a directory of its own, so tests run in parallel.
@Suite struct FeedCommandTests {
    // MARK: - Subscribing

    @Test func subscribingRecordsEveryEpisodeMarksOnlyTheNewestNewAndDownloadsNothing() throws {
        let w = try World()
        let token = UUID().uuidString
        let items = (1...3).reversed().map { n in
            Item(
                title: "Episode \(n)", guid: "ep-\(n)", published: Item.day(n),
                url: w.t.server.url("/gen/\(10_000 + n).mp3?t=\(token)"), length: 10_000 + n)
        }
        let url = try w.serve("feed.xml", Self.rss(title: "The Show", items: items))

        let fetch = try w.t.run(["fetch", url])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout == "Subscribed to #1 The Show: 3 episodes, the newest marked new\n")
        #expect(fetch.stderr.isEmpty)

        let episodes = try w.episodes()
        #expect(episodes.map { $0["title"] as? String } == ["Episode 3", "Episode 2", "Episode 1"])
        #expect(episodes.filter { $0["new"] as? Bool == true }.map { $0["title"] as? String } == ["Episode 3"])
        #expect(episodes.allSatisfy { $0["state"] as? String == "new" && $0["feed"] as? String == "The Show" })
        #expect(episodes.allSatisfy { $0["size"] == nil || $0["size"] is NSNull })
        #expect(Set(episodes.compactMap { $0["url"] as? String }) == Set(items.map(\.url)))

        let feeds = try w.feeds()
        #expect(feeds.count == 1)
        let feed = try #require(feeds.first)
        #expect(feed["url"] as? String == url)
        #expect(feed["title"] as? String == "The Show")
        #expect(feed["episodes"] as? Int == 3)
        #expect(feed["new"] as? Int == 1)
        #expect(feed["downloaded"] as? Int == 0)
        #expect(feed["failures"] as? Int == 0)
        #expect(feed["last_error"] == nil || feed["last_error"] is NSNull)

        // Nothing was downloaded: no audio requested, no episode directories, no feed body left behind.
        #expect(try w.t.server.stats().filter { $0.path.contains(token) }.isEmpty)
        #expect(w.episodeDirectories().isEmpty)
        #expect(w.strayFiles().isEmpty)
    }

    @Test func theNewestByDateIsNewEvenWhenTheFeedListsOldestFirst() throws {
        let w = try World()
        let items = (1...3).map { n in
            Item(
                title: "Part \(n)", guid: "part-\(n)", published: Item.day(n),
                url: "https://media.example.com/part\(n).mp3", duration: ["1800", "45:00", "1:02:03"][n - 1])
        }
        let url = try w.serve("feed.xml", Self.rss(title: "Serial", items: items))
        #expect(try w.t.run(["fetch", url]).status == 0)

        let episodes = try w.episodes()
        #expect(episodes.map { $0["title"] as? String } == ["Part 3", "Part 2", "Part 1"], "newest first")
        #expect(episodes.filter { $0["new"] as? Bool == true }.map { $0["title"] as? String } == ["Part 3"])
        #expect(episodes.map { $0["published_at"] as? Int } == [3, 2, 1].map { Item.day($0) })
        #expect(episodes.map { $0["duration"] as? Double } == [3723, 2700, 1800])
    }

    @Test func aFeedWithoutDatesKeepsItsOrderAndItsFirstItemIsTheNewest() throws {
        let w = try World()
        // Feeds list newest first; without dates that order is all there is.
        let items = try (1...3).reversed().map { n in
            var item = try w.audioItem(n)
            item.spec.published = nil
            return item
        }
        let url = try w.serve("feed.xml", Self.rss(title: "Undated", items: items.map(\.spec)))
        #expect(try w.t.run(["fetch", url, "--download", "1"]).status == 0)
        let episodes = try w.episodes()
        #expect(episodes.map { $0["title"] as? String } == ["Episode 3", "Episode 2", "Episode 1"])
        #expect(episodes.filter { $0["new"] as? Bool == true }.map { $0["title"] as? String } == ["Episode 3"])
        #expect(try w.episodes(["--downloaded"]).map { $0["title"] as? String } == ["Episode 3"])
    }

    @Test func fetchingAgainIsConditionalAndAChangedFeedAddsExactlyTheNewItem() throws {
        let w = try World()
        var items = (1...3).reversed().map { w.item($0) }
        let url = try w.serve("feed.xml", Self.rss(title: "Weekly", items: items))
        #expect(try w.t.run(["fetch", url]).status == 0)
        let before = try w.episodes()

        let again = try w.t.run(["fetch", url])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "#1 Weekly is unchanged\n")
        let conditional = try #require(try w.requests("feed.xml").last)
        #expect(conditional.ifNoneMatch != nil || conditional.ifModifiedSince != nil)
        #expect(conditional.status == 304)
        #expect(try w.uuids() == before.compactMap { $0["uuid"] as? String })

        items.insert(w.item(4), at: 0)
        try w.serve("feed.xml", Self.rss(title: "Weekly", items: items))
        let refresh = try w.t.run(["refresh"])
        #expect(refresh.status == 0, "\(refresh)")
        #expect(refresh.stdout == "#1 Weekly: 1 new\nChecked 1 feed: 1 new\n")
        #expect(refresh.stderr.isEmpty)
        let changed = try #require(try w.requests("feed.xml").last)
        #expect(changed.status == 200)
        #expect(changed.ifNoneMatch == conditional.ifNoneMatch, "the refresh still sent the stored validator")

        let after = try w.episodes()
        #expect(after.count == 4)
        #expect(
            Set(after.compactMap { $0["uuid"] as? String }).isSuperset(of: before.compactMap { $0["uuid"] as? String }))
        let added = try #require(after.first { $0["title"] as? String == "Episode 4" })
        #expect(added["new"] as? Bool == true)
        #expect(
            after.filter { $0["new"] as? Bool == true }.count == 2, "the new item, and the newest of the subscription")
        #expect(try w.feeds().first?["new"] as? Int == 2)
    }

    @Test func aGzippedFeedIsAskedForAndReadCorrectly() throws {
        let w = try World()
        let items = (1...5).reversed().map { w.item($0) }
        let document = Self.rss(title: "Compressed Cast", items: items)
        let url = try w.serve("feed.xml", document) + "?gzip=1"
        let fetch = try w.t.run(["fetch", url])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout == "Subscribed to #1 Compressed Cast: 5 episodes, the newest marked new\n")
        let request = try #require(try w.requests("feed.xml?gzip=1").first)
        #expect(request.acceptEncoding?.contains("gzip") == true)
        #expect(request.status == 200)
        #expect(request.bodyBytesSent < document.utf8.count, "the body came compressed")
        #expect(Set(try w.episodes().compactMap { $0["title"] as? String }) == Set(items.map(\.title)))
        #expect(try w.feeds().first?["url"] as? String == url)
        #expect(try w.feeds().first?["title"] as? String == "Compressed Cast")
    }

    // MARK: - Moved feeds

    @Test(arguments: [("/permanent", true), ("/moved", true), ("/redirect/1", false)])
    func aPermanentRedirectMovesTheSubscriptionATemporaryOneDoesNot(prefix: String, permanent: Bool) throws {
        let w = try World()
        let target = try w.serve("feed.xml", Self.rss(title: "Wanderer", items: [w.item(1)]))
        let requested = w.t.server.url(prefix + w.path("feed.xml"))
        let fetch = try w.t.run(["fetch", requested])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(try w.feeds().map { $0["url"] as? String } == [permanent ? target : requested])

        // The address the user typed still names the same subscription.
        let again = try w.t.run(["fetch", requested])
        #expect(again.status == 0, "\(again)")
        #expect(try w.feeds().count == 1)
        #expect(try w.episodes().count == 1)
    }

    @Test func itunesNewFeedURLMovesTheSubscriptionOnSubscribeAndOnRefresh() throws {
        let w = try World()
        let items = [w.item(2), w.item(1)]
        let new = w.url("new.xml")
        let old = try w.serve(
            "old.xml",
            Self.rss(title: "Mover", items: items, channelExtra: "<itunes:new-feed-url>\(new)</itunes:new-feed-url>"))
        try w.serve("new.xml", Self.rss(title: "Mover", items: items))
        #expect(try w.t.run(["fetch", old]).status == 0)
        #expect(try w.feeds().map { $0["url"] as? String } == [new])
        #expect(try w.t.run(["refresh"]).status == 0)
        #expect(try w.requests("new.xml").count == 1, "the refresh went to the new address")

        // A subscribed feed that announces a move on a later refresh.
        let later = try World()
        let start = try later.serve("feed.xml", Self.rss(title: "Later Mover", items: items))
        let destination = try later.serve("moved.xml", Self.rss(title: "Later Mover", items: items))
        #expect(try later.t.run(["fetch", start]).status == 0)
        try later.serve(
            "feed.xml",
            Self.rss(
                title: "Later Mover", items: items,
                channelExtra: "<itunes:new-feed-url>\(destination)</itunes:new-feed-url>"))
        #expect(try later.t.run(["refresh"]).status == 0)
        #expect(try later.feeds().map { $0["url"] as? String } == [destination])
        let byNewURL = try later.t.run(["fetch", destination])
        #expect(byNewURL.status == 0, "\(byNewURL)")
        #expect(!byNewURL.stdout.contains("Subscribed"), "the new URL names the existing subscription")
        #expect(try later.feeds().count == 1)
        #expect(try later.episodes().count == 2)
    }

    @Test func aNewFeedURLThatIsNotHTTPIsIgnored() throws {
        let w = try World()
        let url = try w.serve(
            "feed.xml",
            Self.rss(
                title: "Stayer", items: [w.item(1)],
                channelExtra: "<itunes:new-feed-url>file:///etc/passwd</itunes:new-feed-url>"))
        #expect(try w.t.run(["fetch", url]).status == 0)
        #expect(try w.feeds().map { $0["url"] as? String } == [url])
    }

    // MARK: - Bodies that are not feeds

    @Test func anHTMLPageIsRefusedWithOneLineAndNothingIsSubscribed() throws {
        let w = try World()
        let url = w.t.server.url("/html/portal-\(UUID().uuidString).xml")
        let result = try w.t.run(["fetch", url])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr
                == "podcli: \(url) is not a feed or audio (the server sent an HTML page, perhaps a captive portal or login page); nothing was kept\n"
        )
        #expect(result.stdout.isEmpty)
        try w.expectNothingStored()
    }

    /// What the command line adds to `FeedUpdaterTests`' broken bodies (each refused with its
    /// own words, nothing stored): one line, exit 65.
    @Test func aBodyThatIsNotACompleteFeedIsOneLineAndExit65() throws {
        let w = try World()
        // Everything the server has, sent complete, but the document stops inside an item.
        let whole = Self.rss(title: "Cut", items: (1...4).reversed().map { w.item($0) })
        let url = try w.serve(
            "feed.xml", String(whole[..<whole.range(of: "<item>", options: .backwards)!.upperBound]) + "\n<title>Episo")
        let result = try w.t.run(["fetch", url])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix("podcli: \(url): the feed ends early (cut off at line "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        try w.expectNothingStored()
    }

    @Test func aFeedWithAnIllegalCharacterSaysSoWithItsLine() throws {
        let w = try World()
        var item = w.item(1)
        item.url = "https://media.example.com/a\u{1}b.mp3"
        let url = try w.serve("feed.xml", Self.rss(title: "Controls", items: [item]))
        let result = try w.t.run(["fetch", url])
        #expect(result.status == 65, "\(result)")
        let line = try #require(
            Self.rss(title: "Controls", items: [item]).split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains("\u{1}") })
        #expect(
            result.stderr
                == "podcli: \(url): not read: the feed has an illegal character at line \(line + 1) (XML allows no "
                + "control characters but tab, newline and carriage return)\n")
        try w.expectNothingStored()
    }

    /// A feed whose generator has 200,000 attributes (issue 22: 36 s in libxml2, holding sync's
    /// lock) is refused at once in one line, exit 65, nothing stored.
    @Test func aFeedOfAnElementWithAbsurdlyManyAttributesIsRefusedAtOnce() throws {
        let w = try World()
        let attributes = (1...200_000).map { " a\($0)=\"\($0)\"" }.joined()
        let feed = Self.rss(
            title: "Attributes", items: [w.item(1)], channelExtra: "<generator\(attributes)>x</generator>")
        let url = try w.serve("feed.xml", feed)
        let start = ContinuousClock.now
        let result = try w.t.run(["fetch", url])
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix("podcli: \(url): not read: an element at line "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(" of the feed has more than 1000 attributes\n"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        try w.expectNothingStored()
    }

    @Test func libxml2sOwnMessagesNeverReachTheTerminal() throws {
        let t = try CLITestCase()
        var bytes = Data(#"<?xml version="1.0" encoding="Shift_JIS"?><rss><channel><title>"#.utf8)
        bytes.append(contentsOf: [0x81, 0xFF, 0x80, 0xA0])
        bytes.append(Data("</title></channel></rss>".utf8))
        let file = try t.home.write(bytes, to: "undecodable.xml")
        let result = try t.run(["inspect", file.path])
        #expect(result.status == 65)
        #expect(result.stderr == "podcli: not a feed: its bytes do not decode in the encoding it declares\n")
    }

    @Test func aRefreshThatGetsABrokenFeedKeepsEverythingAndRecordsTheError() throws {
        let w = try World()
        let document = Self.rss(title: "Fragile", items: (1...3).reversed().map { w.item($0) })
        let url = try w.serve("feed.xml", document)
        #expect(try w.t.run(["fetch", url]).status == 0)
        let before = try w.episodes()

        let cut = document.prefix(document.count * 2 / 3)
        try w.serve("feed.xml", String(cut))
        let refresh = try w.t.run(["refresh"])
        #expect(refresh.status == 65, "\(refresh)")
        #expect(refresh.stdout == "Checked 1 feed: 0 new\n")
        #expect(refresh.stderr.hasPrefix("podcli: #1 Fragile: \(url): the feed ends early"), "\(refresh.stderr)")
        #expect(refresh.stderr.hasSuffix("podcli: 1 feed of 1 failed\n"), "\(refresh.stderr)")
        #expect(try w.uuids() == before.compactMap { $0["uuid"] as? String })
        #expect(try w.episodes().map { $0["title"] as? String } == before.map { $0["title"] as? String })
        let failed = try #require(try w.feeds().first)
        #expect((failed["last_error"] as? String)?.contains("the feed ends early") == true, "\(failed)")
        #expect(failed["failures"] as? Int == 1)
        #expect(failed["episodes"] as? Int == 3)

        // Once the feed is whole again, the error is cleared.
        try w.serve("feed.xml", document)
        #expect(try w.t.run(["refresh"]).status == 0)
        let healed = try #require(try w.feeds().first)
        #expect(healed["last_error"] == nil || healed["last_error"] is NSNull)
        #expect(healed["failures"] as? Int == 0)
        #expect(try w.uuids() == before.compactMap { $0["uuid"] as? String })
    }

    // MARK: - Episode identity

    @Test func enclosuresThatChangeTrackingPrefixAreTheSameEpisodes() throws {
        let w = try World()
        // No guids and no dates: only the enclosure URL, trackers stripped, can tell the episodes apart.
        func document(_ prefix: String) -> String {
            Self.rss(
                title: "Tracked",
                items: (1...3).reversed().map { n in
                    Item(title: "Episode \(n)", url: prefix + "media.example.com/shows/tracked/ep\(n).mp3")
                })
        }
        let url = try w.serve("feed.xml", document("https://dts.podtrac.com/redirect.mp3/"))
        #expect(try w.t.run(["fetch", url]).status == 0)
        let before = try w.uuids()
        #expect(before.count == 3)

        try w.serve("feed.xml", document("https://chtbl.com/track/ABC/"))
        let refresh = try w.t.run(["refresh"])
        #expect(refresh.status == 0, "\(refresh)")
        #expect(refresh.stdout == "Checked 1 feed: 0 new\n", "nothing new")
        let after = try w.episodes()
        #expect(after.compactMap { $0["uuid"] as? String } == before)
        #expect(after.allSatisfy { ($0["url"] as? String)?.hasPrefix("https://chtbl.com/track/ABC/") == true })
        #expect(after.filter { $0["new"] as? Bool == true }.count == 1)
    }

    @Test func twoItemsSharingAGUIDAreTwoEpisodesAndStayTwo() throws {
        let w = try World()
        let items = [
            Item(title: "Part B", guid: "shared", published: Item.day(2), url: "https://media.example.com/b.mp3"),
            Item(title: "Part A", guid: "shared", published: Item.day(1), url: "https://media.example.com/a.mp3"),
            // The same item listed twice is one episode.
            Item(title: "Part A", guid: "shared", published: Item.day(1), url: "https://media.example.com/a.mp3"),
        ]
        let url = try w.serve("feed.xml", Self.rss(title: "Sharer", items: items))
        #expect(try w.t.run(["fetch", url]).status == 0)
        let before = try w.episodes()
        #expect(before.compactMap { $0["title"] as? String }.sorted() == ["Part A", "Part B"])

        try w.serve("feed.xml", Self.rss(title: "Sharer", items: items))  // same text, new validator
        let refresh = try w.t.run(["refresh"])
        #expect(refresh.status == 0, "\(refresh)")
        #expect(try w.requests("feed.xml").last?.status == 200)
        let after = try w.episodes()
        #expect(Set(after.compactMap { $0["uuid"] as? String }) == Set(before.compactMap { $0["uuid"] as? String }))
        #expect(
            Set(after.compactMap { $0["url"] as? String }) == [
                "https://media.example.com/a.mp3", "https://media.example.com/b.mp3",
            ])
    }

    @Test func itemsRemovedFromTheFeedKeepTheirRowsAndFiles() throws {
        let w = try World()
        let items = try (1...3).reversed().map { try w.audioItem($0) }
        let url = try w.serve("feed.xml", Self.rss(title: "Shrinking", items: items.map(\.spec)))
        #expect(try w.t.run(["fetch", url, "--download", "1"]).status == 0)
        let downloaded = try #require(try w.episodes(["--downloaded"]).first)
        let downloadedItem = try #require(items.first { $0.spec.title == downloaded["title"] as? String })
        let path = try #require(try w.t.show(String(downloaded["id"] as! Int))["path"] as? String)

        // The feed now lists a new episode and one other: the downloaded one is among the two dropped.
        let newest = try w.audioItem(4)
        let stays = try #require(items.first { $0.spec.title != downloadedItem.spec.title })
        try w.serve("feed.xml", Self.rss(title: "Shrinking", items: [newest.spec, stays.spec]))
        let refresh = try w.t.run(["fetch", url])
        #expect(refresh.status == 0, "\(refresh)")
        #expect(refresh.stdout == "Refreshed #1 Shrinking: 1 new, 2 no longer listed (kept)\n")
        let episodes = try w.episodes()
        #expect(
            episodes.compactMap { $0["title"] as? String }.sorted() == [
                "Episode 1", "Episode 2", "Episode 3", "Episode 4",
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == downloadedItem.data)
        #expect(
            try w.episodes(["--downloaded"]).compactMap { $0["uuid"] as? String } == [downloaded["uuid"] as! String])
        #expect(try w.feeds().first?["episodes"] as? Int == 4)
    }

    // MARK: - Downloading and listing

    @Test func downloadOneFetchesOnlyTheNewestAndListFiltersFindIt() throws {
        let w = try World()
        let items = try (1...3).reversed().map {
            try w.audioItem($0, description: $0 == 2 ? "With a special guest" : nil)
        }
        let url = try w.serve("feed.xml", Self.rss(title: "Daily Audio", items: items.map(\.spec)))
        let fetch = try w.t.run(["fetch", url, "--download", "1"])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stdout.hasPrefix("Subscribed to #1 Daily Audio: 3 episodes, the newest marked new\nDownloaded #"))
        #expect(fetch.stdout.contains(" Episode 3 (") && !fetch.stdout.contains("Episode 2"))

        #expect(try w.requests("ep3.mp3").count == 1)
        #expect(try w.requests("ep2.mp3").isEmpty && w.requests("ep1.mp3").isEmpty)
        let downloaded = try w.episodes(["--downloaded"])
        #expect(downloaded.map { $0["title"] as? String } == ["Episode 3"])
        #expect(downloaded.first?["state"] as? String == "downloaded")
        #expect(downloaded.first?["size"] as? Int == items[0].data.count)
        let shown = try w.t.show(String(try #require(downloaded.first?["id"] as? Int)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(shown["path"] as? String))) == items[0].data)
        #expect(try w.feeds().first?["downloaded"] as? Int == 1)

        #expect(try w.episodes(["--new"]).map { $0["title"] as? String } == ["Episode 3"])
        #expect(try w.episodes(["Daily", "-s", "episode 2"]).map { $0["title"] as? String } == ["Episode 2"])
        #expect(try w.episodes(["Daily", "--search", "SPECIAL GUEST"]).map { $0["title"] as? String } == ["Episode 2"])
        #expect(try w.episodes(["-s", "nothing like this"]).isEmpty)

        let none = try w.t.run(["list", "Daily", "-s", "nothing like this"])
        #expect(none.status == 0)
        #expect(none.stderr == "No episodes match.\n")
        let unknown = try w.t.run(["list", "Nightly"])
        #expect(unknown.status == 66)
        #expect(
            unknown.stderr
                == "podcli: no feed 'Nightly': give its number, its URL or a part of its title (see 'podcli feeds')\n")

        // Downloading "all" afterwards fetches the two that are left.
        let all = try w.t.run(["fetch", "Daily", "--download", "all"])
        #expect(all.status == 0, "\(all)")
        #expect(try w.episodes(["--downloaded"]).count == 3)
        #expect(try w.requests("ep3.mp3").count == 1, "the downloaded one is not fetched again")
    }

    @Test func theProjectsDemoFeedShowsWhatItSays() throws {
        let w = try World()
        for name in ["tone-44k-stereo.mp3", "noise-22k-mono.mp3"] {
            try FileManager.default.copyItem(at: fixture(name), to: w.directory.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(
            at: w.directory.appendingPathComponent("feeds"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixture("feeds/demo.xml"), to: w.directory.appendingPathComponent("feeds/demo.xml"))
        let fetch = try w.t.run(["fetch", w.url("feeds/demo.xml"), "--download", "all"])
        #expect(fetch.status == 0, "\(fetch)")
        let chord = try #require(try w.episodes().first { ($0["title"] as? String)?.contains("chord") == true })
        let shown = try w.t.show(String(try #require(chord["id"] as? Int)))
        #expect(shown["url"] as? String == w.url("tone-44k-stereo.mp3"), "the relative enclosure is resolved")
        #expect(shown["state"] as? String == "downloaded")
        #expect(shown["feed"] as? String == "podcli Demo Radio")
        #expect(shown["published_at"] as? Int == 1_710_171_000)  // Mon, 11 Mar 2024 07:30:00 PST
        #expect(shown["duration"] as? Double == 3)
        #expect(shown["episode"] as? Int == 1)
        let chapters = try #require(shown["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["Start", "Middle"])
        #expect(chapters.map { $0["start"] as? Double } == [0, 1.5])
        let persons = try #require(shown["persons"] as? [[String: Any]])
        #expect(persons.first?["name"] as? String == "Ada Lovelace" && persons.first?["role"] as? String == "host")
        let transcripts = try #require(shown["transcripts"] as? [[String: Any]])
        #expect(transcripts.first?["url"] as? String == w.url("feeds/episode-1.vtt"))
        let text = try w.t.run(["show", String(chord["id"] as! Int)])
        // The description, as text wrapped at 78 columns, with the link's target after its text.
        #expect(
            text.stdout.hasSuffix(
                "\n440 Hz and 660 Hz. See A440\n(https://en.wikipedia.org/wiki/A440_(pitch_standard)).\n"))
        #expect(text.stdout.contains("Chapters:\n  0:00  Start\n  0:01  Middle"))
    }

    @Test func fetchingAFeedEpisodesAudioURLDownloadsThatEpisode() throws {
        let w = try World()
        let items = try (1...2).reversed().map { try w.audioItem($0) }
        let url = try w.serve("feed.xml", Self.rss(title: "Daily Audio", items: items.map(\.spec)))
        #expect(try w.t.run(["fetch", url]).status == 0)
        let older = try #require(try w.episodes().first { $0["title"] as? String == "Episode 1" })
        let fetch = try w.t.run(["fetch", w.url("ep1.mp3")])
        #expect(fetch.status == 0, "\(fetch)")
        #expect(fetch.stderr.hasPrefix("Downloading #\(older["id"] as! Int) Episode 1"))
        let after = try w.episodes()
        #expect(after.count == 2, "no second episode for the same audio")
        #expect(after.first { $0["id"] as? Int == older["id"] as? Int }?["state"] as? String == "downloaded")
    }

    // MARK: - Unsubscribing

    @Test func unsubscribingKeepsDownloadedEpisodesAndTheirFiles() throws {
        let w = try World()
        let items = try (1...3).reversed().map { try w.audioItem($0) }
        let url = try w.serve("feed.xml", Self.rss(title: "Leaving Soon", items: items.map(\.spec)))
        #expect(try w.t.run(["fetch", url, "--download", "1"]).status == 0)
        let kept = try #require(try w.episodes(["--downloaded"]).first)
        let keptData = try #require(items.first { $0.spec.title == kept["title"] as? String }?.data)
        let path = try #require(try w.t.show(String(kept["id"] as! Int))["path"] as? String)

        let result = try w.t.run(["unsubscribe", "Leaving"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Unsubscribed from #1 Leaving Soon; kept 1 episode with files\n")
        #expect(try w.feeds().isEmpty)
        let episodes = try w.episodes()
        #expect(episodes.compactMap { $0["uuid"] as? String } == [kept["uuid"] as! String])
        #expect(episodes.first?["state"] as? String == "downloaded")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == keptData)
        #expect(try w.t.run(["unsubscribe", "Leaving"]).status == 66)
    }

    @Test func unsubscribingWithDeleteFilesRemovesThem() throws {
        let w = try World()
        let items = try (1...2).reversed().map { try w.audioItem($0) }
        let url = try w.serve("feed.xml", Self.rss(title: "Gone Cast", items: items.map(\.spec)))
        #expect(try w.t.run(["fetch", url, "--download", "all"]).status == 0)
        #expect(try w.episodes(["--downloaded"]).count == 2)
        #expect(w.episodeDirectories().count == 2)

        let result = try w.t.run(["unsubscribe", url, "--delete-files"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Unsubscribed from #1 Gone Cast\n")
        #expect(try w.feeds().isEmpty)
        #expect(try w.episodes().isEmpty)
        #expect(w.episodeDirectories().isEmpty)
    }

    // MARK: - OPML

    @Test func importSubscribesTheGoodFeedsNamesTheFailingOneAndExportRoundTrips() throws {
        let w = try World()
        let first = try w.serve("a.xml", Self.rss(title: "Tom & Jerry Talk", items: [w.item(2), w.item(1)]))
        let second = try w.serve("b.xml", Self.rss(title: "Second <Show>", items: [w.item(1)]))
        let missing = w.url("missing.xml")
        let opml = try w.t.home.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head><title>From another app</title></head>
              <body>
                <outline text="Podcasts">
                  <outline type="rss" text="Tom &amp; Jerry Talk" xmlUrl="\(first)"/>
                  <outline type="rss" text="Gone" xmlUrl="\(missing)"/>
                </outline>
                <outline type="rss" text="Second" xmlUrl="\(second)"/>
              </body>
            </opml>
            """, to: "in.opml")

        let result = try w.t.run(["import", opml.path])
        #expect(result.status == 69, "\(result)")
        #expect(result.stdout == "Subscribed to 2 feeds, refreshed 0\n")
        #expect(
            result.stderr
                == "podcli: \(missing): server answered 404 Not Found for \(missing)\npodcli: 1 feed of 3 failed\n")
        let feeds = try w.feeds()
        #expect(Set(feeds.compactMap { $0["url"] as? String }) == [first, second])
        #expect(Set(feeds.compactMap { $0["title"] as? String }) == ["Tom & Jerry Talk", "Second <Show>"])

        let export = try w.t.run(["export"])
        #expect(export.status == 0, "\(export)")
        #expect(export.stdout.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + #"<opml version="2.0">"#))
        let outlines = OPMLOutlines(export.stdout)
        #expect(outlines.urls.count == 2)
        #expect(Set(outlines.urls) == [first, second])
        #expect(Set(outlines.titles) == ["Tom & Jerry Talk", "Second <Show>"])

        // The export, imported into a fresh library, subscribes to the same feeds.
        let elsewhere = try World()
        let file = try elsewhere.t.home.write(export.stdout, to: "export.opml")
        let again = try elsewhere.t.run(["import", file.path])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "Subscribed to 2 feeds, refreshed 0\n")
        let copied = try elsewhere.feeds()
        #expect(Set(copied.compactMap { $0["url"] as? String }) == [first, second])
        #expect(Set(copied.compactMap { $0["title"] as? String }) == ["Tom & Jerry Talk", "Second <Show>"])
        #expect(try elsewhere.episodes().count == 3)
    }

    /// An import of many feeds into a small library builds `list`'s date index once, at its end;
    /// killed before that, it leaves a library that gets the index back when next opened, with
    /// every feed it recorded.
    @Test func anImportOfManyFeedsKilledHalfWayLeavesALibraryThatListsNewestFirst() throws {
        let w = try World()
        var outlines = ""
        for n in 1...12 {
            let url = try w.serve(
                "f\(n).xml",
                Self.rss(title: "Show \(n)", items: [w.item(2 * n, in: "s\(n)"), w.item(2 * n - 1, in: "s\(n)")]))
            // The last is sent at 50 bytes a second: the import is killed while it reads it.
            outlines += #"<outline type="rss" text="\#(n)" xmlUrl="\#(n == 12 ? url + "?slow=50" : url)"/>"#
        }
        let opml = try w.t.home.write(#"<opml version="2.0"><body>\#(outlines)</body></opml>"#, to: "many.opml")
        let database = w.t.home.path + "/podcli.db"
        func query(_ sql: String) throws -> String {
            let result = try RunningProcess(
                executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [database, sql], environment: [:]
            ).waitUntilExit()
            guard result.status == 0 else { throw TestSupportError("sqlite3 failed: \(result)") }
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        let dateIndex = "SELECT count(*) FROM sqlite_schema WHERE name = 'episodes_newest'"

        let doomed = try w.t.podcli.start(["--home", w.t.home.path, "import", opml.path])
        let elevenRecorded = try waitUntil(timeout: 30) {
            FileManager.default.fileExists(atPath: database) && (try? query("SELECT count(*) FROM feeds")) == "11"
        }
        #expect(elevenRecorded)
        #expect(try query(dateIndex) == "0")
        doomed.kill(signal: SIGKILL)
        _ = try doomed.waitUntilExit()
        #expect(try query("SELECT name FROM deferred_indexes ORDER BY name") == "episodes_newest\nepisodes_source_url")

        let listed = try w.episodes(["--limit", "3"]).compactMap { $0["title"] as? String }
        #expect(listed == ["Episode 22", "Episode 21", "Episode 20"])
        #expect(try query(dateIndex) == "1")
        #expect(try query("SELECT count(*) FROM deferred_indexes") == "0")
        #expect(try query("SELECT count(*) FROM sqlite_schema WHERE name = 'episodes_source_url'") == "1")
        #expect(try w.episodes(["--all"]).count == 22)
    }

    @Test(arguments: [
        ("", "the file is empty"),
        ("<rss><channel><title>T</title></channel></rss>", "not an OPML subscription list (the document is <rss>)"),
        (
            "<opml version=\"2.0\"><body>\n<outline text=\"A\" xmlUrl=\"http://127.0.0.1:9/a\"/>\n",
            "the OPML file ends early (cut off at line 2)"
        ),
        (
            "<opml version=\"2.0\"><body>\n<outline text=\"A\u{1}\" xmlUrl=\"http://127.0.0.1:9/a\"/>\n</body></opml>\n",
            "not read: the OPML file has an illegal character at line 2 (XML allows no control characters but tab, "
                + "newline and carriage return)"
        ),
        ("i am not xml", "not an OPML subscription list: not XML (line 1: Document is empty)"),
    ])
    func importSaysWhatIsWrongWithAFileThatIsNotOPML(content: String, message: String) throws {
        let t = try CLITestCase()
        let file = try t.home.write(Data(content.utf8), to: "list.opml")
        let result = try t.run(["import", file.path])
        #expect(result.status == 65)
        #expect(result.stderr == "podcli: \(file.path): \(message)\n")
    }

    @Test func anOPMLOutlineThatServesAudioIsNamedAndNotSubscribed() throws {
        let w = try World()
        let feed = try w.serve("feed.xml", Self.rss(title: "Real Feed", items: [w.item(1)]))
        let audio = try w.audioItem(1).spec.url
        let opml = try w.t.home.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><body>
            <outline type="rss" text="Audio" xmlUrl="\(audio)"/>
            <outline type="rss" text="Feed" xmlUrl="\(feed)"/>
            </body></opml>
            """, to: "in.opml")
        let result = try w.t.run(["import", opml.path])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout == "Subscribed to 1 feed, refreshed 0\n")
        #expect(
            result.stderr
                == "podcli: \(audio): \(audio) serves audio, not a feed ('podcli fetch' downloads it as an episode)\n"
                + "podcli: 1 feed of 2 failed\n")
        #expect(try w.feeds().map { $0["url"] as? String } == [feed])
        #expect(try w.episodes().count == 1)
        #expect(w.episodeDirectories().isEmpty)
    }

    /// Killed while it waits for a slow feed, an import keeps every feed recorded before it, each
    /// whole: the feeds before a wait for the network are committed first.
    @Test func aKilledImportKeepsTheFeedsRecordedBeforeEachWhole() throws {
        let w = try World()
        let fast = try (1...3).map { n in
            try w.serve(
                "f\(n).xml", Self.rss(title: "Show \(n)", items: (1...4).reversed().map { w.item($0, in: "s\(n)") }))
        }
        let slow = try w.serve("slow.xml", Self.rss(title: "Slow", items: [w.item(1, in: "slow")])) + "?slow=40"
        let outlines = (fast + [slow]).map {
            #"<outline type="rss" text="x" xmlUrl="\#($0.replacingOccurrences(of: "&", with: "&amp;"))"/>"#
        }
        let opml = try w.t.home.write(
            #"<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><body>"# + outlines.joined() + "</body></opml>",
            to: "in.opml")
        let running = try w.t.podcli.start(["--home", w.t.home.path, "import", opml.path])
        let committed = waitUntil(timeout: 30, interval: 0.1) { (try? w.feeds().count) == 3 }
        try #require(committed, "the three fast feeds were not committed while the slow one came in")
        running.kill(signal: SIGKILL)
        let result = try running.waitUntilExit()
        #expect(result.signal == SIGKILL, "\(result)")
        let feeds = try w.feeds()
        #expect(Set(feeds.compactMap { $0["url"] as? String }) == Set(fast))
        #expect(feeds.compactMap { $0["episodes"] as? Int } == [4, 4, 4], "\(feeds)")
        #expect(try w.episodes(["--all"]).count == 12)
    }

    // MARK: - Refresh

    @Test func refreshWithNoSubscriptionsSaysSo() throws {
        let w = try World()
        let result = try w.t.run(["refresh"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "Checked 0 feeds: 0 new\n")
        #expect(result.stderr.isEmpty)
        let feeds = try w.t.run(["feeds"])
        #expect(feeds.status == 0)
        #expect(feeds.stderr == "No subscriptions yet: 'podcli fetch FEED_URL' subscribes to one.\n")
        #expect(try w.feeds().isEmpty)
    }

    @Test func refreshChecksEveryFeedReportsTheChangedOnesAndGoesOnPastAFailure() throws {
        let w = try World()
        var urls: [String] = []
        for name in ["Alpha", "Beta", "Gamma"] {
            let url = try w.serve("\(name).xml", Self.rss(title: "\(name) Show", items: [w.item(1, in: name)]))
            #expect(try w.t.run(["fetch", url]).status == 0)
            urls.append(url)
        }
        try w.serve("Beta.xml", Self.rss(title: "Beta Show", items: [w.item(2, in: "Beta"), w.item(1, in: "Beta")]))

        let refresh = try w.t.run(["refresh"])
        #expect(refresh.status == 0, "\(refresh)")
        #expect(refresh.stdout == "#2 Beta Show: 1 new\nChecked 3 feeds: 1 new\n")
        #expect(refresh.stderr.isEmpty)
        for name in ["Alpha", "Gamma"] {
            let last = try #require(try w.requests("\(name).xml").last)
            #expect(last.status == 304, "\(name)")
            #expect(last.ifNoneMatch != nil || last.ifModifiedSince != nil)
        }
        #expect(try w.episodes(["Beta"]).count == 2)

        // One feed gone: the others are still checked, and the failure is named and recorded.
        try FileManager.default.removeItem(at: w.directory.appendingPathComponent("Gamma.xml"))
        try w.serve(
            "Alpha.xml", Self.rss(title: "Alpha Show", items: [w.item(2, in: "Alpha"), w.item(1, in: "Alpha")]))
        let failing = try w.t.run(["refresh"])
        #expect(failing.status == 69, "\(failing)")
        #expect(failing.stdout == "#1 Alpha Show: 1 new\nChecked 3 feeds: 1 new\n")
        #expect(
            failing.stderr
                == "podcli: #3 Gamma Show: server answered 404 Not Found for \(urls[2])\n"
                + "podcli: 1 feed of 3 failed\n")
        let feeds = try w.feeds()
        #expect(feeds.map { $0["failures"] as? Int } == [0, 0, 1])
        #expect((feeds.last?["last_error"] as? String)?.contains("404") == true)
        #expect(feeds.map { $0["episodes"] as? Int } == [2, 2, 1])

        // A refresh of one feed checks that feed only.
        let before = try w.t.server.stats().filter { $0.path.contains(w.folder) }.count
        let one = try w.t.run(["refresh", "Beta"])
        #expect(one.status == 0, "\(one)")
        let requests = try w.t.server.stats().filter { $0.path.contains(w.folder) }.dropFirst(before)
        #expect(requests.map(\.path) == [w.path("Beta.xml")])
    }
}

// MARK: - Test helpers

extension FeedCommandTests {

    /// One `<item>` of a generated RSS feed.
    struct Item {
        var title: String
        var guid: String?
        /// Unix seconds, written as an RFC 822 pubDate.
        var published: Int?
        var url: String
        var length: Int = 1_000
        var type = "audio/mpeg"
        var duration: String? = "1800"
        var description: String?

        /// Noon UTC on day `n` of January 2025.
        static func day(_ n: Int) -> Int { 1_735_689_600 + (n - 1) * 86_400 + 43_200 }
    }

    /// An RSS 2.0 document with the iTunes namespace listing `items` in the order given.
    static func rss(title: String, items: [Item], channelExtra: String = "") -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">"#,
            "<channel>",
            "<title>\(xmlEscape(title))</title>",
            "<link>https://example.com/show</link>",
            "<description>A show made by a test.</description>",
            "<itunes:author>Test Author</itunes:author>",
        ]
        if !channelExtra.isEmpty { lines.append(channelExtra) }
        for item in items {
            lines.append("<item>")
            lines.append("<title>\(xmlEscape(item.title))</title>")
            if let guid = item.guid { lines.append(#"<guid isPermaLink="false">\#(xmlEscape(guid))</guid>"#) }
            if let published = item.published { lines.append("<pubDate>\(rfc822(published))</pubDate>") }
            if let description = item.description {
                lines.append("<description>\(xmlEscape(description))</description>")
            }
            lines.append(
                #"<enclosure url="\#(xmlEscape(item.url))" length="\#(item.length)" type="\#(item.type)"/>"#)
            if let duration = item.duration { lines.append("<itunes:duration>\(duration)</itunes:duration>") }
            lines.append("</item>")
        }
        lines += ["</channel>", "</rss>", ""]
        return lines.joined(separator: "\n")
    }

    static func xmlEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// "Sun, 05 Jan 2025 12:00:00 +0000".
    static func rfc822(_ seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The outlines of an OPML document, read with a regular expression (export writes one per line).
    struct OPMLOutlines {
        var urls: [String] = []
        var titles: [String] = []

        init(_ text: String) {
            for line in text.split(separator: "\n") where line.contains("<outline") {
                if let match = line.firstMatch(of: #/xmlUrl="([^"]*)"/#) { urls.append(Self.unescape(String(match.1))) }
                if let match = line.firstMatch(of: #/title="([^"]*)"/#) {
                    titles.append(Self.unescape(String(match.1)))
                }
            }
        }

        static func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    /// A test's library plus a directory of its own on the fault server, where it serves its feeds.
    struct World {
        let t: CLITestCase
        let folder: String
        let directory: URL

        init() throws {
            t = try CLITestCase()
            folder = "feeds-\(UUID().uuidString)"
            directory = try t.server.makeDirectory(folder)
        }

        /// The server path of `name` in this test's directory.
        func path(_ name: String) -> String { "/files/\(folder)/\(name)" }

        func url(_ name: String) -> String { t.server.url(path(name)) }

        /// Writes `text` as `name` and returns its URL. A rewrite moves the modification time on,
        /// so the ETag and Last-Modified change even when the size does not.
        @discardableResult
        func serve(_ name: String, _ text: String) throws -> String {
            let file = directory.appendingPathComponent(name)
            let previous = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]) as? Date
            try Data(text.utf8).write(to: file)
            if let previous {
                let next = max(Date(), previous.addingTimeInterval(2)).addingTimeInterval(1)
                try FileManager.default.setAttributes([.modificationDate: next], ofItemAtPath: file.path)
            }
            return url(name)
        }

        /// An item whose enclosure is not fetched by the test.
        func item(_ n: Int, in show: String = "show") -> Item {
            Item(
                title: "Episode \(n)", guid: "\(show)-\(n)", published: Item.day(n),
                url: "https://media.example.com/\(show)/ep\(n).mp3")
        }

        /// An item whose enclosure is real audio served from this test's directory as `ep<n>.mp3`.
        func audioItem(_ n: Int, description: String? = nil) throws -> (spec: Item, data: Data) {
            let data = CLITestCase.audioBytes(20_000 + n * 1_000)
            try data.write(to: directory.appendingPathComponent("ep\(n).mp3"))
            var spec = item(n)
            spec.url = url("ep\(n).mp3")
            spec.length = data.count
            spec.description = description
            return (spec, data)
        }

        /// `podcli list [arguments] --json`, decoded.
        func episodes(_ arguments: [String] = []) throws -> [[String: Any]] {
            try json(["list"] + arguments)
        }

        /// `podcli feeds --json`, decoded.
        func feeds() throws -> [[String: Any]] { try json(["feeds"]) }

        func uuids() throws -> [String] { try episodes().compactMap { $0["uuid"] as? String } }

        private func json(_ arguments: [String]) throws -> [[String: Any]] {
            let result = try t.run(arguments + ["--json"])
            guard result.status == 0 else { throw TestSupportError("\(arguments) failed: \(result)") }
            guard let array = try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]] else {
                throw TestSupportError("\(arguments) did not print a JSON array: \(result.stdout)")
            }
            return array
        }

        /// The requests for `name` in this test's directory.
        func requests(_ name: String) throws -> [RequestRecord] {
            try t.server.stats(pathPrefix: path(name)).filter {
                $0.path == path(name) || $0.path.hasPrefix(path(name) + "?")
            }
        }

        /// The per-episode directories of the library.
        func episodeDirectories() -> [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: t.home.path + "/episodes")) ?? []
        }

        /// Files in the data directory besides the database and the episode directories: a feed
        /// is parsed as it downloads and must leave nothing behind.
        func strayFiles() -> [String] {
            let expected: Set = ["podcli.db", "podcli.db-wal", "podcli.db-shm", "episodes"]
            return ((try? FileManager.default.contentsOfDirectory(atPath: t.home.path)) ?? []).filter {
                !expected.contains($0)
            }
        }

        /// No feed, no episode, no file: what a refused body leaves.
        func expectNothingStored(sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try feeds().isEmpty, sourceLocation: sourceLocation)
            #expect(try episodes().isEmpty, sourceLocation: sourceLocation)
            #expect(episodeDirectories().isEmpty, sourceLocation: sourceLocation)
            #expect(strayFiles().isEmpty, sourceLocation: sourceLocation)
        }
    }
}
