import EpisodeStore
import Foundation
import TestSupport
import Testing

@testable import PodcliKit

/// The time the queue takes: each episode's length less its position, at its feed's speed.
@Suite struct QueueTimeTests {
    /// Feeds "Slow" and "Fast", each with episodes of the given lengths (seconds; nil: none given).
    static func library(slow: [Int?], fast: [Int?]) throws -> (TemporaryDirectory, Library) {
        let home = try TemporaryDirectory(prefix: "podcli-queue-time")
        let library = try Library(directory: home.path + "/data")
        for (title, lengths) in [("Slow", slow), ("Fast", fast)] {
            let items = lengths.enumerated().map { n, seconds in
                var item = EpisodeMetadata(
                    title: "\(title) \(n + 1)", sourceURL: "https://cdn.example.com/\(title)/\(n).mp3",
                    mediaKey: "cdn.example.com/\(title)/\(n).mp3")
                item.durationMilliseconds = seconds.map { $0 * 1000 }
                return item
            }
            _ = try library.subscribe(
                url: "https://example.com/\(title).xml", metadata: FeedMetadata(title: title), episodes: items,
                etag: nil, lastModified: nil, protection: .private)
        }
        try library.enqueue(try library.episodes().sorted { $0.title < $1.title })
        return (home, library)
    }

    /// "Fast" at 2x, the rest at 1.25x.
    static func listening(_ home: TemporaryDirectory, _ library: Library) throws -> Listening {
        try home.write("speed = 1.25\n[feed \"Fast\"]\nspeed = 2\n", to: "config")
        return try Listening(config: Config(path: home.path + "/config"), library: library)
    }

    @Test func eachEpisodeTakesWhatIsLeftOfItAtItsFeedsSpeed() throws {
        let (home, library) = try Self.library(slow: [1_500], fast: [1_800, 1_200])
        // Fast 1 was left 10 minutes in.
        let fastOne = try #require(try library.episodes().first { $0.title == "Fast 1" })
        try library.setPlaybackState(PlaybackState(positionMilliseconds: 600_000, played: false), of: fastOne)

        let time = QueueTime(try library.queueListing(), listening: try Self.listening(home, library))
        #expect(time.entries.map(\.listing.title) == ["Fast 1", "Fast 2", "Slow 1"])
        #expect(time.entries.map(\.speed) == [2, 2, 1.25])
        #expect(time.entries.map(\.left) == [600, 600, 1_200])
        #expect(time.total == 2_400)
        #expect(time.unknownLengths == 0)
    }

    @Test func anEpisodeOfUnknownLengthIsCountedApart() throws {
        let (home, library) = try Self.library(slow: [nil, 100], fast: [])
        let time = QueueTime(try library.queueListing(), listening: try Self.listening(home, library))
        #expect(time.entries.map(\.left) == [nil, 80])
        #expect(time.total == 80)
        #expect(time.unknownLengths == 1)
    }

    @Test func eachEntryIsTheListingsJSONWithItsSpeedAndTimeLeft() throws {
        let (home, library) = try Self.library(slow: [nil], fast: [1_800])
        let time = QueueTime(try library.queueListing(), listening: try Self.listening(home, library))
        let json = try EpisodeReport.json(time.entries)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["title"] as? String } == ["Fast 1", "Slow 1"])
        #expect(objects.map { $0["speed"] as? Double } == [2, 1.25])
        #expect(objects.map { $0["left"] as? Double } == [900, nil])
        #expect(objects.map { $0["duration"] as? Double } == [1_800, nil])
        #expect(objects.allSatisfy { $0["feed"] is String && $0["starred"] as? Bool == false })
    }
}
