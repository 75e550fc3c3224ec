import Chapters
import Foundation
import Testing

struct ChapterListTests {
    @Test func sortsChaptersAndEndsEachAtTheNextStartOrTheLength() {
        let list = ChapterList(
            [Chapter(start: 60, title: "Two"), Chapter(start: 0, title: "One"), Chapter(start: 60, title: "Again")],
            length: 90)
        #expect(list.chapters.map(\.title) == ["One", "Two"])
        #expect(list.chapters.map(\.end) == [60, 90])
        #expect(list.index(at: 59.9) == 0)
        #expect(list.index(at: 60) == 1)
        #expect(ChapterList([Chapter(start: 5)]).index(at: 1) == nil)
    }

    @Test func keepsTheStoredKeysAndReadsTocFalse() throws {
        let old = #"[{"start":1.5,"title":"Middle","href":"https://x/m"}]"#
        let decoded = try JSONDecoder().decode([Chapter].self, from: Data(old.utf8))
        #expect(decoded == [Chapter(start: 1.5, title: "Middle", url: "https://x/m")])
        let hidden = try JSONDecoder().decode(Chapter.self, from: Data(#"{"start":3,"toc":false}"#.utf8))
        #expect(!hidden.isNavigationStop && hidden.title == nil)
        let encoded = String(decoding: try JSONEncoder().encode(hidden), as: UTF8.self)
        #expect(encoded.contains(#""toc":false"#))
    }
}
