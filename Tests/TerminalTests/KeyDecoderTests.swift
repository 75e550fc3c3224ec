import Testing

@testable import Terminal

@Suite struct KeyDecoderTests {
    static func decode(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(Array(text.utf8))
    }

    @Test func decodesPlainKeys() {
        #expect(Self.decode("q ") == [.character("q"), .space])
        #expect(Self.decode("\r\n") == [.enter, .enter])
        #expect(Self.decode("\t\u{7F}\u{0C}") == [.control(0x09), .control(0x7F), .control(0x0C)])
    }

    @Test func decodesArrowsInBothCursorModes() {
        #expect(Self.decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(Self.decode("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
    }

    @Test func ignoresModifiersOnArrows() {
        #expect(Self.decode("\u{1B}[1;5C\u{1B}[1;2D") == [.right, .left])
    }

    @Test func swallowsOtherSequencesWhole() {
        // F5, PageUp, Home (SS3), F1 (SS3): nothing, and no stray characters.
        #expect(Self.decode("\u{1B}[15~\u{1B}[5~\u{1B}OH\u{1B}OPx") == [.character("x")])
    }

    @Test func keepsSequencesSplitAcrossReads() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.decode(Array("[1;".utf8)) == [])
        #expect(decoder.decode(Array("5Cq".utf8)) == [.right, .character("q")])
        #expect(decoder.decode([0x1B, UInt8(ascii: "O")]) == [])
        #expect(decoder.decode([UInt8(ascii: "A")]) == [.up])
    }

    @Test func decodesMultiByteCharactersEvenWhenSplit() {
        #expect(Self.decode("é漢🎧") == [.character("é"), .character("漢"), .character("🎧")])
        var decoder = KeyDecoder()
        let bytes = Array("漢🎧".utf8)
        var keys: [Key] = []
        for byte in bytes { keys += decoder.decode([byte]) }
        #expect(keys == [.character("漢"), .character("🎧")])
    }

    @Test func dropsInvalidUTF8AndKeepsWhatFollows() {
        var decoder = KeyDecoder()
        // A stray continuation byte, a lead byte cut short by "a", an overlong "/", a C1 control.
        let bytes: [UInt8] = [0x80, 0xE6, 0x61, 0xC0, 0xAF, 0xC2, 0x85, 0x62]
        #expect(decoder.decode(bytes) == [.character("a"), .character("b")])
    }

    @Test func tellsALoneEscapeOnlyWhenFlushed() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(decoder.flush() == [])
        #expect(decoder.decode(Array("q".utf8)) == [.character("q")])
    }

    @Test func escapeBeforeAnotherKeyIsEscapeThenThatKey() {
        #expect(Self.decode("\u{1B}q") == [.escape, .character("q")])
        #expect(Self.decode("\u{1B}\u{1B}[A") == [.escape, .up])
    }

    @Test func flushDropsAnUnfinishedSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[1;".utf8)) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.decode(Array("C".utf8)) == [.character("C")])
    }

    @Test func aBrokenSequenceGivesBackTheByteThatBrokeIt() {
        #expect(Self.decode("\u{1B}[1\r") == [.enter])
    }
}
