import Testing

@testable import EpisodeStore

/// `newestEpisodes(numberedFrom:limit:)`, what `podcli play 12<Tab>` offers: the same episodes
/// as reading every one and keeping those whose number starts with the prefix, whichever way
/// it reads them.
@Suite struct LibraryNumberPrefixTests {
    let directory = TestDirectory()

    @Test func theRangesOfAPrefixHoldExactlyTheNumbersStartingWithIt() {
        #expect(NumberPrefixRanges(prefix: "12", largest: 1_250).ranges == [12...12, 120...129, 1_200...1_250])
        #expect(NumberPrefixRanges(prefix: "3", largest: 2).ranges.isEmpty)
        for prefix in ["0", "01", "x", "1x", "-1", "١", ""] {
            #expect(NumberPrefixRanges(prefix: prefix, largest: 100).ranges.isEmpty, "\(prefix)")
        }
        let nines = NumberPrefixRanges(prefix: "9", largest: 9_500)
        #expect(nines.ranges == [9...9, 90...99, 900...999, 9_000...9_500] && nines.count == 612)
        let huge = NumberPrefixRanges(prefix: "9", largest: Int.max)
        #expect(huge.ranges.count == 19 && huge.ranges.last == 9_000_000_000_000_000_000...Int.max)
        #expect(NumberPrefixRanges(prefix: "99999999999999999999999", largest: Int.max).ranges.isEmpty)
    }

    @Test func theNewestEpisodesNumberedFromAPrefixAreThoseAFullReadFinds() throws {
        let library = try Library(directory: directory.path + "/data")
        // Dates in another order than the numbers: newest is neither the largest nor the smallest.
        let items = (1...260).map { number in
            var item = EpisodeMetadata(
                title: "Episode \(number)", sourceURL: "https://cdn.example.com/\(number).mp3",
                mediaKey: "cdn.example.com/\(number).mp3")
            item.guid = "guid-\(number)"
            item.publishedAt = 1_700_000_000 + (number * 7_919 % 260) * 86_400
            return item
        }
        _ = try library.subscribe(
            url: "https://example.com/feed", metadata: FeedMetadata(title: "Show"), episodes: items, etag: nil,
            lastModified: nil, protection: .private)
        let all = try library.listing(EpisodeFilter()).map(\.id)
        // Limits 5 and 100 take both ways for "1" and "2" (k² against limit * largest).
        for limit in [1, 5, 100] {
            for prefix in ["", "1", "2", "12", "25", "26", "260", "261", "0", "7x"] {
                let expected =
                    prefix.isEmpty || prefix.first == "0" || !prefix.allSatisfy(\.isNumber)
                    ? (prefix.isEmpty ? Array(all.prefix(limit)) : [])
                    : Array(all.filter { String($0).hasPrefix(prefix) }.prefix(limit))
                let found = try library.newestEpisodes(numberedFrom: prefix, limit: limit)
                #expect(found.map(\.id) == expected, "\(prefix), limit \(limit)")
                #expect(found.allSatisfy { $0.feedTitle == "Show" })
            }
        }
    }
}
