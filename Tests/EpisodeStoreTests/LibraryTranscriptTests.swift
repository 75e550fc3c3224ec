import Foundation
import Testing

@testable import EpisodeStore

/// Transcripts in the library (schemas 16 and 17): kept in segments, their text once, deflated;
/// searched by `list -s` beside the episodes' texts, and their index kept in step with every change.
@Suite struct LibraryTranscriptTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    /// Episodes titled as given, one a day, the last the newest, of the feed `feed`; their ids in the same order.
    private func subscribe(
        _ library: Library, titles: [String], descriptions: [String?]? = nil, feed: String = "https://example.com/feed"
    ) throws -> [Int] {
        let items = titles.enumerated().map { number, title in
            var item = EpisodeMetadata(
                title: title, sourceURL: feed + "/\(number).mp3", mediaKey: feed + "/\(number).mp3")
            item.guid = feed + "#\(number)"
            item.publishedAt = 1_700_000_000 + number * 86_400
            item.description = descriptions?[number]
            return item
        }
        try library.subscribe(
            url: feed, metadata: FeedMetadata(title: "Show"), episodes: items, etag: nil,
            lastModified: nil, protection: .private)
        let byTitle = Dictionary(
            try library.listing(EpisodeFilter()).map { ($0.title, $0.id) }, uniquingKeysWith: { first, _ in first })
        return titles.map { byTitle[$0]! }
    }

    private func search(_ library: Library, _ text: String, rankedUpTo limit: Int? = nil) throws -> [EpisodeListing] {
        var filter = EpisodeFilter()
        filter.search = text
        if let limit { filter.rankedSearchLimit = limit }
        return try library.listing(filter)
    }

    private func hits(_ library: Library, _ text: String) throws -> [String: SearchHit] {
        Dictionary(uniqueKeysWithValues: try search(library, text).map { ($0.title, $0.searchHit!) })
    }

    /// The index is whole (FTS5's own check), and no word of `forgotten` is in it any more: a
    /// contentless index keeps a word it is not told to forget, which an episode given a deleted
    /// one's id would be found by.
    private func expectIndexInStep(_ library: Library, forgotten: [String] = []) throws {
        try library.database.execute("INSERT INTO transcript_search (transcript_search) VALUES ('integrity-check')")
        for word in forgotten {
            let left = try library.database.rows(
                "SELECT count(*) FROM transcript_search WHERE transcript_search MATCH ?", [.text(word)]
            ).first?.int(0)
            #expect(left == 0, "\(word)")
        }
    }

    private let interview = [
        TranscriptSegment(startMilliseconds: 0, endMilliseconds: 30_000, speaker: "Host", text: "Welcome to the show."),
        TranscriptSegment(
            startMilliseconds: 754_200, endMilliseconds: 780_000, speaker: "Guest",
            text: "The zeppelin flew over Kraków."),
        TranscriptSegment(startMilliseconds: 1_200_000, speaker: "Host", text: "Zeppelins again, and the harbour."),
    ]

    @Test func aTranscriptIsKeptInOrderOfStartAndReplacedWhole() throws {
        let library = try makeLibrary()
        let ids = try subscribe(library, titles: ["One"])
        try library.setTranscript(interview.reversed(), of: ids[0])
        #expect(try library.transcript(of: ids[0]) == interview)
        try library.setTranscript([TranscriptSegment(startMilliseconds: 5, text: "Only this.")], of: ids[0])
        #expect(try library.transcript(of: ids[0]) == [TranscriptSegment(startMilliseconds: 5, text: "Only this.")])
        try library.removeTranscript(of: ids[0])
        #expect(try library.transcript(of: ids[0]).isEmpty)
        #expect(throws: StoreError.self) { try library.setTranscript(interview, of: ids[0] + 100) }
    }

    @Test func aSearchSaysWhetherItFoundTheTextsOrATimeInTheTranscript() throws {
        let library = try makeLibrary()
        let ids = try subscribe(
            library, titles: ["Airships", "Harbour news", "Nothing here"],
            descriptions: ["All about the zeppelin.", nil, nil])
        try library.setTranscript(interview, of: ids[1])
        try library.setTranscript(interview, of: ids[0])
        let found = try hits(library, "zeppelin")
        // The first segment with the word; a word beginning another ("Zeppelins") is found too.
        #expect(
            found == [
                "Airships": SearchHit(inTexts: true, transcriptMilliseconds: 754_200),
                "Harbour news": SearchHit(inTexts: false, transcriptMilliseconds: 754_200),
            ])
        // Every word in one segment (not some in the title and the rest in the transcript).
        let later = SearchHit(inTexts: false, transcriptMilliseconds: 1_200_000)
        #expect(try hits(library, "zeppelins harbour") == ["Airships": later, "Harbour news": later])
        #expect(try hits(library, "news zeppelin").isEmpty)
        #expect(try hits(library, "welcome kraków").isEmpty)
        // Texts first, best match first; then those found only in a transcript.
        #expect(try search(library, "zeppelin").map(\.title) == ["Airships", "Harbour news"])
        var filter = EpisodeFilter()
        filter.search = "zeppelin"
        #expect(try library.count(filter) == 2)
        #expect(try library.searchOrder(filter) == .bestMatch)
    }

    @Test func accentsAndCaseAreFoldedAsInTheEpisodesIndex() throws {
        let library = try makeLibrary()
        let ids = try subscribe(library, titles: ["One", "Two"])
        try library.setTranscript(interview, of: ids[0])
        try library.setTranscript(
            [TranscriptSegment(startMilliseconds: 61_000, text: "Krako\u{301}w, São Paulo, Москва")], of: ids[1])
        for text in ["krakow", "KRAKÓW", "krak"] {
            #expect(
                try hits(library, text) == [
                    "One": SearchHit(inTexts: false, transcriptMilliseconds: 754_200),
                    "Two": SearchHit(inTexts: false, transcriptMilliseconds: 61_000),
                ], "\(text)")
        }
        #expect(try hits(library, "sao МОСКВА").keys.sorted() == ["Two"])
    }

    /// `podcli rm` of an episode its feed still lists keeps its row: its transcript goes with its files.
    @Test func noHitOutlivesItsEpisodesFiles() throws {
        let library = try makeLibrary()
        let ids = try subscribe(library, titles: ["One", "Two"])
        for id in ids { try library.setTranscript(interview, of: id) }
        try library.removeFiles(of: try #require(try library.episode(id: ids[0])))
        try expectIndexInStep(library)
        #expect(try hits(library, "zeppelin").keys.sorted() == ["Two"])
        #expect(try library.transcript(of: ids[0]).isEmpty)
    }

    @Test func noHitOutlivesItsTranscriptOrItsEpisode() throws {
        let library = try makeLibrary()
        let ids = try subscribe(library, titles: ["One", "Two", "Three"])
        for id in ids { try library.setTranscript(interview, of: id) }
        try library.setTranscript(
            [TranscriptSegment(startMilliseconds: 0, text: "Something else entirely.")], of: ids[0])
        try library.removeTranscript(of: ids[1])
        try library.setTranscript([TranscriptSegment(startMilliseconds: 0, text: "Zeppelin, once.")], of: ids[1])
        try library.setTranscript([], of: ids[1])
        try library.remove(try #require(try library.episode(id: ids[2])))
        try expectIndexInStep(library, forgotten: ["zeppelin", "welcome", "harbour", "once"])
        #expect(try search(library, "zeppelin").isEmpty)
        #expect(try search(library, "zeppelin", rankedUpTo: 0).isEmpty)
        #expect(try hits(library, "entirely") == ["One": SearchHit(inTexts: false, transcriptMilliseconds: 0)])
        let left = try library.database.rows("SELECT count(*) FROM transcript_segments").first?.int(0)
        #expect(left == 1)
        #expect(
            try library.database.rows("SELECT episode_id FROM transcript_texts").map { $0.int(0) } == [Int64(ids[0])])
        // The deleted episode's id, given to the next new one: nothing it said is found there.
        let next = try subscribe(library, titles: ["Four"], feed: "https://example.com/other")
        #expect(next == [ids[2]])
        #expect(try search(library, "zeppelin").isEmpty)
        #expect(try search(library, "zeppelin", rankedUpTo: 0).isEmpty)
    }

    /// Ending a subscription forgets the transcripts of the episodes it forgets, and keeps those
    /// of the episodes kept for their files.
    @Test func noHitOutlivesAnUnsubscribedFeedsEpisodes() throws {
        let library = try makeLibrary()
        let ids = try subscribe(library, titles: ["One", "Two", "Three"])
        for id in ids { try library.setTranscript(interview, of: id) }
        try library.setTranscript(
            [TranscriptSegment(startMilliseconds: 9_000, text: "Kept with its file.")], of: ids[1])
        let kept = try #require(try library.episode(id: ids[1]))
        try FileManager.default.createDirectory(atPath: library.directory(of: kept), withIntermediateDirectories: true)
        try library.unsubscribe(try library.feed(matching: "Show"), deleteFiles: false)
        try expectIndexInStep(library, forgotten: ["zeppelin", "welcome"])
        #expect(try hits(library, "file") == ["Two": SearchHit(inTexts: false, transcriptMilliseconds: 9_000)])
        #expect(try library.transcript(of: ids[1]).map(\.text) == ["Kept with its file."])
        // The last one's id, given to a new episode.
        let next = try subscribe(library, titles: ["Four", "Five"], feed: "https://example.com/other")
        #expect(next.contains(ids[2]))
        #expect(try search(library, "zeppelin").isEmpty)
        try library.remove(try #require(try library.episode(id: ids[1])))
        try expectIndexInStep(library, forgotten: ["file"])
    }

    /// A transcript set of a realistic size (hours of speech, in segments of 30 s) makes the
    /// database grow by less than the bytes of its text: the text is kept once, deflated, and the
    /// index keeps none of it.
    @Test func theDatabaseGrowsByLessThanTheTranscriptsText() throws {
        let library = try makeLibrary()
        let ids = try subscribe(library, titles: (0..<32).map { "Episode \($0)" })
        let pages = { () throws -> Int in
            let count = try library.database.rows("PRAGMA page_count").first?.int(0) ?? 0
            let size = try library.database.rows("PRAGMA page_size").first?.int(0) ?? 0
            return Int(count * size)
        }
        let before = try pages()
        var speech = Speech(seed: 26)
        var textBytes = 0
        for id in ids {
            let hour = (0..<120).map { place in
                TranscriptSegment(
                    startMilliseconds: place * 30_000, endMilliseconds: place * 30_000 + 30_000,
                    speaker: place % 3 == 0 ? "Guest" : "Host", text: speech.sentences(words: 75))
            }
            textBytes += hour.reduce(0) { $0 + $1.text.utf8.count }
            try library.setTranscript(hour, of: id)
        }
        let growth = try pages() - before
        #expect(textBytes > 500_000)
        #expect(growth < textBytes, "grew by \(growth) B for \(textBytes) B of text")
        try expectIndexInStep(library)
    }

    /// A library of schema 16 (each segment's text in its row, an index over them) keeps every
    /// transcript through the upgrade, found as before, and forgets them as a library of today.
    @Test func aTranscriptFromBeforeTheUpgradeIsKeptFoundAndForgotten() throws {
        let migrator = Migrator()
        let deflated = try #require(migrator.migrations.first { $0.sql.contains("CREATE TABLE transcript_texts") })
        try FileManager.default.createDirectory(atPath: directory.path + "/data", withIntermediateDirectories: true)
        do {
            let database = try Database(path: directory.path + "/data/podcli.db")
            try migrator.migrate(database, upTo: deflated.version - 1)
            for id in 1...3 {
                try database.execute(
                    """
                    INSERT INTO episodes (id, uuid, title, source_url, created_at, sort_date)
                    VALUES (\(id), '0190a000-0000-7000-8000-00000000000\(id)', 'Old \(id)', 'http://x/\(id).mp3', 0, \(id))
                    """)
            }
            // Indexed as the store indexes new episodes (no trigger does it since schema 7).
            try database.execute(
                """
                INSERT INTO episode_search (rowid, title, podcast, description)
                SELECT id, title, NULL, search_text(NULL) FROM episodes
                """)
            // As schema 16's store wrote a transcript: its segments, then their index in one statement.
            for (id, segments) in [
                (1, interview), (2, [TranscriptSegment(startMilliseconds: 5_000, text: "A \"quoted\"\n\\ zeppelin")]),
            ] {
                for (place, segment) in segments.enumerated() {
                    try database.run(
                        "INSERT INTO transcript_segments (rowid, start_ms, end_ms, speaker, text) VALUES (?, ?, ?, ?, ?)",
                        [
                            .integer(Int64(id * Library.segmentsPerEpisode + place)),
                            .integer(Int64(segment.startMilliseconds)),
                            segment.endMilliseconds.map { .integer(Int64($0)) } ?? .null,
                            segment.speaker.map(SQLValue.text) ?? .null,
                            .text(segment.text),
                        ])
                }
            }
            try database.execute(
                "INSERT INTO transcript_search (rowid, text) SELECT rowid, text FROM transcript_segments")
        }
        let library = try makeLibrary()
        #expect(try migrator.version(of: library.database) == migrator.latestVersion)
        #expect(try library.transcript(of: 1) == interview)
        #expect(
            try library.transcript(of: 2) == [
                TranscriptSegment(startMilliseconds: 5_000, text: "A \"quoted\"\n\\ zeppelin")
            ])
        #expect(try library.transcript(of: 3).isEmpty)
        // Deflated, as the store writes them.
        #expect(
            try library.database.rows("SELECT DISTINCT typeof(texts) FROM transcript_texts").map { $0.string(0) } == [
                "blob"
            ])
        try expectIndexInStep(library)
        #expect(
            try hits(library, "zeppelin") == [
                "Old 1": SearchHit(inTexts: false, transcriptMilliseconds: 754_200),
                "Old 2": SearchHit(inTexts: false, transcriptMilliseconds: 5_000),
            ])
        #expect(try hits(library, "quoted") == ["Old 2": SearchHit(inTexts: false, transcriptMilliseconds: 5_000)])
        // Forgotten from the form the upgrade wrote, by each way a transcript goes.
        try library.setTranscript([TranscriptSegment(startMilliseconds: 0, text: "New words.")], of: 1)
        try library.remove(try #require(try library.episode(id: 2)))
        try expectIndexInStep(library, forgotten: ["zeppelin", "welcome", "quoted"])
        #expect(try hits(library, "words") == ["Old 1": SearchHit(inTexts: false, transcriptMilliseconds: 0)])
    }

    /// Past `rankedSearchLimit` matches a search lists newest first: the same episodes, found in
    /// the same places, as ranking them.
    @Test func listingNewestFirstFindsWhatRankingFinds() throws {
        let library = try makeLibrary()
        let titles = (0..<40).map {
            "Episode \($0)" + ($0 % 3 == 0 ? " about Kraków" : "") + ($0 % 4 == 0 ? " and zebras" : "")
        }
        let ids = try subscribe(library, titles: titles)
        for (place, id) in ids.enumerated() where place % 5 == 0 {
            try library.setTranscript(
                [
                    TranscriptSegment(startMilliseconds: 0, text: "Hello."),
                    TranscriptSegment(startMilliseconds: 90_000 + place, text: "We went to Krakow with zebras."),
                ], of: id)
        }
        for text in ["krak", "zebra", "kraków zebras", "episode", "hello", "absent", "krakow absent"] {
            let ranked = try search(library, text)
            let newest = try search(library, text, rankedUpTo: 0)
            var filter = EpisodeFilter()
            filter.search = text
            filter.rankedSearchLimit = 0
            #expect(try library.searchOrder(filter) == (ranked.isEmpty ? .bestMatch : .newest), "\(text)")
            #expect(Set(newest.map(\.id)) == Set(ranked.map(\.id)), "\(text)")
            #expect(
                newest.map(\.id) == newest.sorted { ($0.sortDate, -$0.id) > ($1.sortDate, -$1.id) }.map(\.id), "\(text)"
            )
            let rankedHits = Dictionary(uniqueKeysWithValues: ranked.map { ($0.id, $0.searchHit) })
            #expect(newest.allSatisfy { rankedHits[$0.id] == $0.searchHit }, "\(text)")
            #expect(try library.count(filter) == ranked.count, "\(text)")
        }
        // A page of each is a slice of the whole.
        var filter = EpisodeFilter()
        filter.search = "episode"
        filter.rankedSearchLimit = 0
        let all = try library.listing(filter).map(\.id)
        #expect(try library.listing(filter, page: ListingPage(offset: 5, limit: 7)).map(\.id) == Array(all[5..<12]))
    }
}

/// Sentences of made-up speech for a transcript: words of a vocabulary of 5,000 in Zipf's
/// proportions (common short words most of the time, as in speech), made of syllables as words
/// are, the same for the same seed.
struct Speech {
    private var state: UInt64
    private let words: [String]
    private let cumulative: [Double]

    init(seed: UInt64) {
        var state = seed
        var words = """
            the and to of a i in that you it is was we he for on they but so with this be have not are \
            what just at like as know do all one there about if out or my your can think our from an no
            """.split(whereSeparator: \.isWhitespace).map(String.init)
        let onsets = [
            "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "st", "tr", "ch", "sh",
        ]
        let nuclei = ["a", "e", "i", "o", "u", "ea", "ou", "ai"]
        let codas = ["", "", "n", "r", "s", "t", "l", "nd", "ng", "ck"]
        var known = Set(words)
        while words.count < 5_000 {
            var word = ""
            for _ in 0...(Self.next(&state) % 3) {
                word += onsets[Self.next(&state) % onsets.count] + nuclei[Self.next(&state) % nuclei.count]
                word += codas[Self.next(&state) % codas.count]
            }
            if known.insert(word).inserted { words.append(word) }
        }
        self.state = state
        self.words = words
        var total = 0.0
        cumulative = (1...words.count).map { rank in
            total += 1 / Double(rank)
            return total
        }
    }

    /// `count` words, a sentence of up to 15 of them at a time.
    mutating func sentences(words count: Int) -> String {
        var text: [String] = []
        for place in 0..<count {
            let target = Double(Self.next(&state)) / Double(Int.max) * cumulative[cumulative.count - 1]
            var (low, high) = (0, cumulative.count - 1)
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < target { low = middle + 1 } else { high = middle }
            }
            var word = words[low]
            if place % 15 == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
            text.append(place % 15 == 14 || place == count - 1 ? word + "." : word)
        }
        return text.joined(separator: " ")
    }

    /// The next number of a 64-bit linear congruential generator, its high 63 bits.
    private static func next(_ state: inout UInt64) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 1)
    }
}
