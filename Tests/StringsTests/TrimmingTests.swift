import Foundation
import Strings
import Testing

/// The helpers must trim exactly what Foundation trims, since they replaced it byte for byte.
@Suite struct TrimmingTests {
    @Test func everyScalarIsTrimmedWhenFoundationsSetHasIt() {
        var differing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            if text.trimmingWhitespace().isEmpty != CharacterSet.whitespaces.contains(scalar)
                || text.trimmingWhitespaceAndNewlines().isEmpty != CharacterSet.whitespacesAndNewlines.contains(scalar)
            {
                differing.append(value)
            }
        }
        #expect(differing == [])
    }

    @Test(arguments: [
        "", " ", " \t\u{3000}", "  a b  ", "\r\n a \r\n", " a\u{301} ", "\u{301} a", " \u{301}", "é",
        "\u{200B}x\u{FEFF}",
    ])
    func stringsAreTrimmedAsFoundationTrimsThem(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.dropFirst(0).trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func aPredicateTrimsBothEnds() {
        #expect("\"a \"b\"\"".trimming { $0 == "\"" } == "a \"b")
        #expect("\"\"".trimming { $0 == "\"" } == "")
    }
}
