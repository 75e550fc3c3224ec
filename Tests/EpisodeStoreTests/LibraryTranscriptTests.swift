import Foundation
import Testing

@testable import EpisodeStore

/// Transcripts in the library (schema 16): kept in segments, searched by `list -s` beside the
/// episodes' texts, and their index kept in step with every change.
@Suite struct LibraryTranscriptTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    /// Episodes titled as given, one a day, the last the newest; their ids in the same order.
    private func subscribe(_ library: Library, titles: [String], descriptions: [String?]? = nil) throws -> [Int] {
        let items = titles.enumerated().map { number, title in
            var item = EpisodeMetadata(
                title: title, sourceURL: "https://cdn.example.com/\(number).mp3", mediaKey: "cdn.example.com/\(number).mp3")
            item.guid = "guid-\(number)"
            item.publishedAt = 1_700_000_000 + number * 86_400
            item.description = descriptions?[number]
            return item
        }
        try library.subscribe(
            url: "https://example.com/feed", metadata: FeedMetadata(title: "Show"), episodes: items, etag: nil,
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

    /// The index holds exactly the segments' words (FTS5's own check of an index against its content).
    private func expectIndexInStep(_ library: Library) throws {
        try library.database.execute("INSERT INTO transcript_search (transcript_search) VALUES ('integrity-check')")
    }

    private let interview = [
        TranscriptSegment(startMilliseconds: 0, endMilliseconds: 30_000, speaker: "Host", text: "Welcome to the show."),
        TranscriptSegment(startMilliseconds: 754_200, endMilliseconds: 780_000, speaker: "Guest", text: "The zeppelin flew over Kraków."),
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
            library, titles: ["Airships", "Harbour news", "Nothing here"], descriptions: ["All about the zeppelin.", nil, nil])
        try library.setTranscript(interview, of: ids[1])
        try library.setTranscript(interview, of: ids[0])
        let found = try hits(library, "zeppelin")
        // The first segment with the word; a word beginning another ("Zeppelins") is found too.
        #expect(found == [
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
        try library.setTranscript([TranscriptSegment(startMilliseconds: 61_000, text: "Krako\u{301}w, São Paulo, Москва")], of: ids[1])
        for text in ["krakow", "KRAKÓW", "krak"] {
            #expect(try hits(library, text) == [
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
        try library.setTranscript([TranscriptSegment(startMilliseconds: 0, text: "Something else entirely.")], of: ids[0])
        try library.removeTranscript(of: ids[1])
        try library.remove(try #require(try library.episode(id: ids[2])))
        try expectIndexInStep(library)
        #expect(try search(library, "zeppelin").isEmpty)
        #expect(try search(library, "zeppelin", rankedUpTo: 0).isEmpty)
        #expect(try hits(library, "entirely") == ["One": SearchHit(inTexts: false, transcriptMilliseconds: 0)])
        let left = try library.database.rows("SELECT count(*) FROM transcript_segments").first?.int(0)
        #expect(left == 1)
    }

    /// Past `rankedSearchLimit` matches a search lists newest first: the same episodes, found in
    /// the same places, as ranking them.
    @Test func listingNewestFirstFindsWhatRankingFinds() throws {
        let library = try makeLibrary()
        let titles = (0..<40).map { "Episode \($0)" + ($0 % 3 == 0 ? " about Kraków" : "") + ($0 % 4 == 0 ? " and zebras" : "") }
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
            #expect(newest.map(\.id) == newest.sorted { ($0.sortDate, -$0.id) > ($1.sortDate, -$1.id) }.map(\.id), "\(text)")
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
