import Chapters
import Testing

struct JSONChaptersTests {
    private func parse(_ text: String) throws(ChapterProblem) -> [Chapter] { try JSONChapters.parse(Array(text.utf8)) }

    /// The format's example: `toc: false` is shown but no stop; a chapter with no title keeps its start.
    @Test func readsEveryFieldAndTocFalse() throws {
        let chapters = try parse(
            #"""
            {"version": "1.2.0", "author": "x", "chapters": [
              {"startTime": 0, "title": "Intro 🎙️", "img": "https://example.com/1.jpg", "url": "https://example.com/1"},
              {"startTime": 65.5, "endTime": 120, "title": "Реклама", "toc": false},
              {"startTime": 120},
              {"startTime": 180, "title": "第四章", "toc": true, "location": {"name": "x", "geo": "geo:0,0"}}
            ]}
            """#)
        #expect(chapters.map(\.start) == [0, 65.5, 120, 180])
        #expect(chapters.map(\.end) == [nil, 120, nil, nil])
        #expect(chapters.map(\.title) == ["Intro 🎙️", "Реклама", nil, "第四章"])
        #expect(chapters.map(\.isNavigationStop) == [true, false, true, true])
        #expect(chapters[0].image == "https://example.com/1.jpg" && chapters[0].url == "https://example.com/1")
        #expect(ChapterList(chapters).chapters.map(\.end) == [65.5, 120, 180, nil])
    }

    @Test func jsonThatIsNotChaptersIsAProblem() {
        let cases: [(String, String)] = [
            ("<html>Not found</html>", "it is not JSON"),
            (#"{"version": "1.2.0"}"#, #"it has no "chapters""#),
            (#"[1, 2]"#, "it is not an object"),
            (#"{"chapters": [{"title": "No start"}]}"#, #"it has no "startTime""#),
            (#"{"chapters": [{"startTime": "1:00"}]}"#, #""chapters.0.startTime" is not what the format says"#),
            (#"{"chapters": [{"startTime": -4}]}"#, "chapter 1 starts at -4.0 s"),
        ]
        for (text, reason) in cases {
            #expect(throws: ChapterProblem(.json, reason)) { try parse(text) }
        }
        #expect(
            "\(ChapterProblem(.json, "it is not JSON"))" == "the JSON chapters file is not chapters: it is not JSON")
        let many = "{\"chapters\": [" + (0...1000).map { "{\"startTime\": \($0)}" }.joined(separator: ",") + "]}"
        #expect(throws: ChapterProblem(.json, "more than 1000 chapters")) { try parse(many) }
    }
}
