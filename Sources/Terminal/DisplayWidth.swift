/// How many terminal columns text takes, and how to cut it to a number of columns.
///
/// Measured one grapheme cluster (`Character`) at a time, by its first scalar, the way current
/// terminals draw a cluster in one cell run: East Asian Wide and Fullwidth characters (CJK, kana,
/// Hangul, fullwidth forms) and emoji shown as emoji take 2 columns; combining marks, format
/// characters (zero-width space and joiner) and control characters take 0; everything else takes 1,
/// including East Asian Ambiguous characters such as "…", "—" and "▶" (as outside CJK locales).
public enum DisplayWidth {
    /// The columns the whole text takes.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let properties = first.properties
        switch properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        if properties.isEmojiPresentation || isWide(first.value) { return 2 }
        // A text-style emoji followed by VS16 (U+FE0F), e.g. "❤️", is drawn as an emoji.
        if properties.isEmoji && scalars.contains("\u{FE0F}") { return 2 }
        return 1
    }

    /// The text if it fits in `columns`, else its longest prefix of whole grapheme clusters that
    /// fits with a trailing "…" (spaces before the "…" dropped). Empty when `columns` is 0 or less.
    public static func fit(_ text: String, columns: Int) -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return text }
        var kept = ""
        var used = 0
        for character in text {
            let width = of(character)
            guard used + width <= columns - 1 else { break }
            kept.append(character)
            used += width
        }
        // "Episode 42:…" rather than "Episode 42: …".
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + "…"
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks other than emoji (Unicode 15 EastAsianWidth.txt,
    /// grouped by block; the stray W symbols there are emoji, caught by `isEmojiPresentation`).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2329...0x232A,  // angle brackets
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // kana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed, compatibility
        0x3400...0x4DBF,  // CJK Extension A
        0x4E00...0x9FFF,  // CJK Unified Ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo Extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth ASCII
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4, 0x17000...0x18CFF,  // Tangut
        0x1B000...0x1B2FF,  // kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD, 0x30000...0x3FFFD,  // CJK Extensions B and beyond
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        // Nothing below U+1100 is wide: keeps ASCII and Latin off the table.
        value >= 0x1100 && wideRanges.contains { $0.contains(value) }
    }
}
