import Strings
import Testing

/// The one rule for what podcli prints or logs.
@Suite struct PrintableTextTests {
    /// Every control a feed could use: C0 (CR, LF, ESC, tab), DEL, C1 (NEL, CSI), and each
    /// bidirectional embedding, override and isolate.
    static let controls: [Unicode.Scalar] =
        ["\r", "\n", "\u{1B}", "\t", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}", "\u{9F}"]
        + (0x202A...0x202E).map { Unicode.Scalar($0)! } + (0x2066...0x2069).map { Unicode.Scalar($0)! }

    @Test func aLineHasEveryControlBlankedAndKeepsTheTextAroundIt() {
        for control in Self.controls {
            let line = PrintableText.line("before\(control)after")
            #expect(line == "before after", "U+\(String(control.value, radix: 16))")
        }
        #expect(PrintableText.line("Ep\u{9B}2J\r\npodcli: forged") == "Ep 2J  podcli: forged")
    }

    @Test func textWithoutControlsIsLeftAsItIs() {
        // Neighbours of the controls' UTF-8 that are not controls: U+00A0, U+00E9, U+2014, U+2026,
        // U+2029's neighbour U+202F, U+2065, U+206A.
        let text = "caf\u{E9}\u{A0}\u{2014} \u{2026} \u{202F}\u{2065}\u{206A} 漢字 🎙 ¿"
        #expect(PrintableText.line(text) == text)
        #expect(PrintableText.json(text) == text)
        #expect(PrintableText.lines(text) == text)
    }

    @Test func jsonKeepsTheDataAsEscapesAndItsLineBreaks() {
        let json = "{\n  \"title\" : \"a\u{85}b\u{202E}c\u{7F}\"\n}"
        #expect(PrintableText.json(json) == "{\n  \"title\" : \"a\\u0085b\\u202Ec\\u007F\"\n}")
    }

    @Test func aDocumentKeepsItsLinesAndHidesPasswordsUnlessAsked() {
        let document = "<a x=\"http://me:pw@host/f\u{9B}\"/>\n<b/>"
        #expect(PrintableText.lines(document) == "<a x=\"http://me:***@host/f \"/>\n<b/>")
        #expect(PrintableText.lines(document, hidingPasswords: false) == "<a x=\"http://me:pw@host/f \"/>\n<b/>")
    }

    @Test func isControlIsCategoryCcAndTheBidirectionalControls() {
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bidirectional = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            #expect(
                PrintableText.isControl(scalar) == (scalar.properties.generalCategory == .control || bidirectional),
                "U+\(String(value, radix: 16))")
        }
    }
}
