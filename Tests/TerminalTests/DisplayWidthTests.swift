import Testing

@testable import Terminal

@Suite struct DisplayWidthTests {
    @Test func asciiAndLatinTakeOneColumnEach() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("Hello, world") == 12)
        #expect(DisplayWidth.of("Ça va") == 5)
        #expect(DisplayWidth.of("…—▶⏸") == 4)
    }

    @Test func eastAsianWideAndFullwidthTakeTwo() {
        #expect(DisplayWidth.of("漢字") == 4)
        #expect(DisplayWidth.of("ひらがなカタカナ") == 16)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of("\u{3000}") == 2)  // ideographic space
        #expect(DisplayWidth.of("ｶﾀｶﾅ") == 4)  // halfwidth katakana stay narrow
    }

    @Test func emojiTakeTwoAsOneCluster() {
        #expect(DisplayWidth.of("🎧") == 2)
        #expect(DisplayWidth.of("👩‍👩‍👧") == 2)  // ZWJ sequence
        #expect(DisplayWidth.of("🇫🇷") == 2)  // flag
        #expect(DisplayWidth.of("👍🏽") == 2)  // skin tone
        #expect(DisplayWidth.of("❤️") == 2)  // text-style heart with VS16
        #expect(DisplayWidth.of("❤") == 1)  // and without
    }

    @Test func combiningZeroWidthAndControlsTakeNothing() {
        #expect(DisplayWidth.of("e\u{301}") == 1)  // one cluster
        #expect(DisplayWidth.of("\u{301}") == 0)  // a lone combining mark
        #expect(DisplayWidth.of("a\u{200B}b") == 2)  // zero-width space
        #expect(DisplayWidth.of("\u{1B}\t\n\r\n\u{7F}") == 0)
    }

    @Test func fitKeepsTextThatFitsExactly() {
        #expect(DisplayWidth.fit("Hello", columns: 5) == "Hello")
        #expect(DisplayWidth.fit("漢字", columns: 4) == "漢字")
        #expect(DisplayWidth.fit("", columns: 3) == "")
    }

    @Test func fitCutsByColumnsWithAnEllipsis() {
        #expect(DisplayWidth.fit("Hello", columns: 4) == "Hel…")
        #expect(DisplayWidth.fit("Hello", columns: 1) == "…")
        #expect(DisplayWidth.fit("Hello", columns: 0) == "")
        #expect(DisplayWidth.fit("Hello", columns: -3) == "")
    }

    @Test func fitNeverSplitsAWideCharacterOrACluster() {
        // "漢" would need columns 3 and 4; only 3 are left before the "…".
        #expect(DisplayWidth.fit("ab漢字", columns: 4) == "ab…")
        #expect(DisplayWidth.fit("a漢字", columns: 4) == "a漢…")
        #expect(DisplayWidth.fit("漢字漢", columns: 5) == "漢字…")
        #expect(DisplayWidth.fit("e\u{301}e\u{301}e\u{301}", columns: 3) == "e\u{301}e\u{301}e\u{301}")
        #expect(DisplayWidth.fit("e\u{301}e\u{301}e\u{301}", columns: 2) == "e\u{301}…")
        #expect(DisplayWidth.fit("👩‍👩‍👧👩‍👩‍👧", columns: 3) == "👩‍👩‍👧…")
        for columns in 0...8 {
            #expect(DisplayWidth.of(DisplayWidth.fit("漢字🎧e\u{301}x", columns: columns)) <= max(columns, 0))
        }
    }
}
