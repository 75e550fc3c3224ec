import Testing

/// The tables `list`, `queue list` and `feeds` print.
@Suite struct TableTests {
    /// Widths count characters, so a cell with an emoji or a combining accent (more UTF-16 units
    /// than characters) is padded like any other, not cut short.
    @Test func aCellIsPaddedByCharactersAndNeverCut() throws {
        let w = try FeedCommandTests.World()
        let url = try w.serve("feed.xml", FeedCommandTests.rss(title: "🎙 Talke\u{301}", items: [w.item(1)]))
        #expect(try w.t.run(["fetch", url]).status == 0)
        let lines = try w.t.run(["list"]).stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix("  FEED     TITLE") == true)
        #expect(lines.last?.hasSuffix("  🎙 Talke\u{301}  Episode 1") == true)
    }
}
