import Foundation
import Testing

@testable import EpisodeStore

/// Marking in bulk (played, unplayed, new, old; by number, feed and date) and starring.
@Suite struct LibraryMarksTests {
    let directory = TestDirectory()

    private func makeLibrary() throws -> Library { try Library(directory: directory.path + "/data") }

    /// Noon UTC on day `n` of January 2025.
    private static func day(_ n: Int) -> Int { 1_735_689_600 + (n - 1) * 86_400 + 43_200 }

    /// A feed named `title` with one episode published on each of `days` (of January 2025).
    @discardableResult
    private func subscribe(_ title: String, days: [Int], in library: Library) throws -> Feed {
        let items = days.map { n in
            var item = EpisodeMetadata(
                title: "\(title) \(n)", sourceURL: "https://cdn.example.com/\(title)/\(n).mp3",
                mediaKey: "cdn.example.com/\(title)/\(n).mp3")
            item.guid = "\(title)-\(n)"
            item.publishedAt = Self.day(n)
            return item
        }
        return try library.subscribe(
            url: "https://example.com/\(title).xml", metadata: FeedMetadata(title: title), episodes: items, etag: nil,
            lastModified: nil, protection: .private
        ).0
    }

    private func episode(_ title: String, in library: Library) throws -> Episode {
        try #require(try library.episodes().first { $0.title == title })
    }

    private func played(_ library: Library) throws -> Set<String> {
        Set(try library.episodes().filter { try library.playbackState(of: $0).played }.map(\.title))
    }

    @Test func markingPlayedByFeedAndDateReachesOnlyThatFeedsOlderEpisodesInOneGo() throws {
        let library = try makeLibrary()
        let show = try subscribe("Show", days: [1, 2, 3, 4], in: library)
        try subscribe("Other", days: [1, 2], in: library)
        var selection = EpisodeSelection()
        selection.feedID = show.id
        selection.publishedBefore = Self.day(3) - 43_200  // midnight UTC starting 3 January

        #expect(try library.mark(.played, selection) == MarkOutcome(selected: 2, changed: 2))
        #expect(try played(library) == ["Show 1", "Show 2"])
        // Again: reached, but nothing left to change.
        #expect(try library.mark(.played, selection) == MarkOutcome(selected: 2, changed: 0))

        // Without the feed, the date alone reaches every feed.
        selection.feedID = nil
        #expect(try library.mark(.played, selection) == MarkOutcome(selected: 4, changed: 2))
        #expect(try played(library) == ["Show 1", "Show 2", "Other 1", "Other 2"])
    }

    @Test func markingPlayedLeavesWhatThePlayersMarkLeaves() throws {
        let library = try makeLibrary()
        try subscribe("Show", days: [1, 2], in: library)
        let (marked, byPlayer) = (try episode("Show 1", in: library), try episode("Show 2", in: library))
        for episode in [marked, byPlayer] {
            try library.setPlaybackState(PlaybackState(positionMilliseconds: 61_000, played: false), of: episode)
            try library.database.run("UPDATE episodes SET is_new = 1 WHERE id = ?", [SQLValue(episode.id)])
        }
        var selection = EpisodeSelection()
        selection.ids = [marked.id]
        #expect(try library.mark(.played, selection).changed == 1)
        try library.markPlayed(byPlayer)

        for episode in [marked, byPlayer] {
            #expect(try library.playbackState(of: episode) == PlaybackState(positionMilliseconds: 0, played: true))
            #expect(try library.episode(id: episode.id)?.isNew == false)
        }
    }

    @Test func markingUnplayedClearsPlayedAndThePosition() throws {
        let library = try makeLibrary()
        try subscribe("Show", days: [1, 2, 3], in: library)
        let (one, two, three) = try (
            episode("Show 1", in: library), episode("Show 2", in: library), episode("Show 3", in: library)
        )
        try library.markPlayed(one)
        try library.setPlaybackState(PlaybackState(positionMilliseconds: 5_000, played: false), of: two)
        var selection = EpisodeSelection()
        selection.ids = [one.id, two.id, three.id]

        #expect(try library.mark(.unplayed, selection) == MarkOutcome(selected: 3, changed: 2))
        for episode in [one, two, three] {
            #expect(try library.playbackState(of: episode) == .start)
        }
    }

    @Test func markingNewAndOldSetsAndClearsTheNewFlagOnly() throws {
        let library = try makeLibrary()
        let show = try subscribe("Show", days: [1, 2, 3], in: library)
        // Subscribing made the newest new.
        #expect(try library.episodes().filter(\.isNew).map(\.title) == ["Show 3"])
        var selection = EpisodeSelection()
        selection.feedID = show.id

        #expect(try library.mark(.new, selection) == MarkOutcome(selected: 3, changed: 2))
        #expect(try library.episodes().filter(\.isNew).count == 3)
        selection.publishedBefore = Self.day(2)
        #expect(try library.mark(.old, selection) == MarkOutcome(selected: 1, changed: 1))
        #expect(try library.episodes().filter(\.isNew).map(\.title) == ["Show 2", "Show 3"])
        #expect(try played(library).isEmpty)
    }

    @Test func namedEpisodesAreNarrowedByTheFeedAndTheDate() throws {
        let library = try makeLibrary()
        let show = try subscribe("Show", days: [1, 2], in: library)
        try subscribe("Other", days: [1], in: library)
        var selection = EpisodeSelection()
        selection.ids = try ["Show 1", "Show 2", "Other 1"].map { try episode($0, in: library).id }
        selection.feedID = show.id
        selection.publishedBefore = Self.day(2)
        #expect(try library.mark(.played, selection) == MarkOutcome(selected: 1, changed: 1))
        #expect(try played(library) == ["Show 1"])

        // Nothing reached: nothing changes.
        selection.publishedBefore = Self.day(1) - 86_400
        #expect(try library.mark(.played, selection) == MarkOutcome(selected: 0, changed: 0))
    }

    @Test func starringSaysWhichChangedAndTheStarredAreListed() throws {
        let library = try makeLibrary()
        try subscribe("Show", days: [1, 2, 3], in: library)
        let (one, two, three) = try (
            episode("Show 1", in: library), episode("Show 2", in: library), episode("Show 3", in: library)
        )

        #expect(try library.setStarred(true, of: [one, three]) == [one.id, three.id])
        #expect(try library.setStarred(true, of: [three, two]) == [two.id])
        #expect(try library.setStarred(false, of: [two]) == [two.id])
        #expect(try library.episode(id: one.id)?.isStarred == true)
        #expect(try library.episode(id: two.id)?.isStarred == false)

        var filter = EpisodeFilter()
        filter.onlyStarred = true
        #expect(try library.listing(filter).map(\.title) == ["Show 3", "Show 1"])
        #expect(try library.listing(filter).allSatisfy(\.isStarred))
        #expect(try library.count(filter) == 2)
    }

    @Test func starringAnEpisodeRemovedMeanwhileChangesNothing() throws {
        let library = try makeLibrary()
        let one = try library.createEpisode(title: "One", sourceURL: "http://x/1.mp3", protection: .private)
        let gone = try library.createEpisode(title: "Gone", sourceURL: "http://x/2.mp3", protection: .private)
        try library.prepareDirectory(for: gone)
        try library.remove(gone)
        #expect(throws: StoreError.episodeNotFound("\(gone.id)")) { try library.setStarred(true, of: [one, gone]) }
        #expect(try library.episode(id: one.id)?.isStarred == false)
    }
}
