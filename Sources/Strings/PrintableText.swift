/// Text about to be printed or logged, made safe: the one rule for everything podcli writes to a
/// terminal, a pipe or `sync.log`, since most of it came from outside (a feed's titles and URLs, a
/// server's answers, errors quoting either).
///
/// Control characters would let a feed move the cursor or clear the screen (ESC, the C1 CSI
/// U+009B), forge a row of a listing or a line of the log (CR, LF, NEL U+0085), or reorder what
/// follows on the line (the bidirectional embeddings, overrides and isolates, as in "Trojan
/// Source"). Passwords in URLs are hidden as `URLPassword` says.
public enum PrintableText {
    /// Whether `scalar` must not reach a terminal or a log as itself: the C0 and C1 controls and
    /// DEL (general category Cc: U+0000–U+001F, U+007F–U+009F) and the bidirectional controls
    /// U+202A–U+202E (embeddings, overrides, pop) and U+2066–U+2069 (isolates).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` as one line: every control a space (tabs and line breaks too), passwords hidden.
    public static func line(_ text: String) -> String {
        replacingControls(in: URLPassword.hidden(in: text)) { _ in " " }
    }

    /// Lines of a document (OPML) as printed: its line breaks kept, any other control a space,
    /// passwords hidden unless `hidingPasswords` is false (`export --with-credentials`).
    public static func lines(_ text: String, hidingPasswords: Bool = true) -> String {
        let text = hidingPasswords ? URLPassword.hidden(in: text) : text
        return replacingControls(in: text) { $0 == "\n" ? "\n" : " " }
    }

    /// A JSON document as printed: every control but its line breaks written as a `\u` escape, so
    /// the data is kept (JSONEncoder escapes C0 controls in strings, not C1 or bidirectional ones;
    /// outside strings it writes only line breaks and spaces), passwords hidden.
    public static func json(_ text: String) -> String {
        replacingControls(in: URLPassword.hidden(in: text)) { scalar in
            guard scalar != "\n" else { return "\n" }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `text` with each control replaced by what `replacement` says; `text` itself when it has none
    /// (found by its bytes: most lines have none and are not copied).
    private static func replacingControls(in text: String, by replacement: (Unicode.Scalar) -> String) -> String {
        guard hasControl(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += replacement(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether the UTF-8 of `text` holds a control: a byte below 0x20 or DEL, C2 80–C2 9F (C1),
    /// E2 80 AA–E2 80 AE or E2 81 A6–E2 81 A9 (bidirectional).
    private static func hasControl(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for (index, byte) in bytes.enumerated() {
                switch byte {
                case 0..<0x20, 0x7F: return true
                case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]): return true
                case 0xE2 where index + 2 < bytes.count:
                    switch (bytes[index + 1], bytes[index + 2]) {
                    case (0x80, 0xAA...0xAE), (0x81, 0xA6...0xA9): return true
                    default: continue
                    }
                default: continue
                }
            }
            return false
        }
    }
}
