import Chapters
import Testing

@testable import PodcliKit

/// Where the feed's chapters and the file's disagree, the file's are the list; each takes what
/// it lacks from the feed's chapter starting within a second of it.
struct EpisodeChaptersTests {
    @Test func theFileWinsAndTheNearestFeedChapterWithinASecondFillsWhatItLacks() {
        let file = [
            Chapter(start: 0, title: "File intro"), Chapter(start: 30, end: 60),
            Chapter(start: 90, title: "File end", url: "https://file.example/end", image: Chapter.imageInFile),
        ]
        let feed = [
            Chapter(start: 0.9, title: "Feed intro", url: "https://feed.example/intro"),
            Chapter(start: 29.2, title: "Too far"),
            Chapter(start: 30.6, title: "Near", image: "https://feed.example/n.jpg"),
            Chapter(start: 45, title: "Only in the feed"),
            Chapter(
                start: 90.5, title: "Feed end", url: "https://feed.example/end", image: "https://feed.example/e.jpg",
                isNavigationStop: false),
        ]
        let merged = EpisodeChapters.merge(file: file, feed: feed)
        #expect(merged.map(\.start) == [0, 30, 90])
        #expect(merged.map(\.end) == [nil, 60, nil])
        #expect(merged.map(\.title) == ["File intro", "Near", "File end"])
        #expect(merged.map(\.url) == ["https://feed.example/intro", nil, "https://file.example/end"])
        #expect(merged.map(\.image) == [nil, "https://feed.example/n.jpg", Chapter.imageInFile])
        #expect(merged.map(\.isNavigationStop) == [true, true, false])
        #expect(EpisodeChapters.merge(file: [], feed: feed) == feed)
    }
}
