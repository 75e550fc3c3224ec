/// Windows-1252, the encoding text written on Windows is in when it is not UTF-8 (subtitle files,
/// `&#146;` in feeds): Latin-1 but for 0x80–0x9F, which hold typographic quotes, dashes, € and a
/// few letters.
public enum Windows1252 {
    /// The character `byte` stands for; the C1 code point for the five bytes Windows-1252 leaves
    /// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D), as the WHATWG Encoding standard reads them.
    public static func scalar(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte), let mapped = c1Replacements[Int(byte - 0x80)] else {
            return Unicode.Scalar(byte)
        }
        return mapped
    }

    /// The character Windows-1252 puts at 0x80–0x9F, nil where it defines none.
    public static func replacement(forC1 value: UInt32) -> Unicode.Scalar? {
        (0x80...0x9F).contains(value) ? c1Replacements[Int(value - 0x80)] : nil
    }

    /// `bytes` read as Windows-1252 (every byte is a character: this never fails).
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var text = ""
        text.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes { text.unicodeScalars.append(scalar(byte)) }
        return text
    }

    private static let c1Replacements: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]
}
