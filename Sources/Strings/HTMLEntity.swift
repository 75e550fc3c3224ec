/// Decodes HTML character references: `&eacute;`, `&#233;`, `&#xE9;`.
///
/// Named references come from a table of the common ones (all of Latin-1, typographic quotes and
/// dashes, a few symbols); unknown names are left as written, as browsers do. Numbers follow the
/// HTML standard's fixes: 0x80–0x9F are read as Windows-1252 (feeds written on Windows say
/// `&#146;` for `’`), and zero, surrogates and numbers past U+10FFFF become U+FFFD.
public enum HTMLEntity: Sendable {
    /// The character referred to at `start` (an `&`) and the index after the reference, or nil if
    /// no reference starts there.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (scalar: Unicode.Scalar, end: Int)?
    {
        var index = start + 1
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "#") {
            return decodeNumber(bytes, from: index + 1)
        }
        // Names are short; the bound keeps a long run of letters after a stray `&` cheap.
        let nameStart = index
        while index < bytes.count, index - nameStart <= maxNameLength, isAlphanumeric(bytes[index]) { index += 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<index])
        guard !name.isEmpty, name.count <= maxNameLength else { return nil }
        let key = String(decoding: name, as: UTF8.self)
        if index < bytes.count, bytes[index] == UInt8(ascii: ";"), let value = named[key] {
            return (value, index + 1)
        }
        // Browsers also accept the oldest names without the semicolon ("AT&amp T" is rare, "&amp" is not).
        if legacyWithoutSemicolon.contains(key), let value = named[key] {
            return (value, index)
        }
        return nil
    }

    private static let maxNameLength = 8

    private static func decodeNumber(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Unicode.Scalar, Int)? {
        var index = start
        let hex = index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "x")
        if hex { index += 1 }
        let digitsStart = index
        var value: UInt32 = 0
        while index < bytes.count, let digit = digitValue(bytes[index], hex: hex) {
            // Saturate rather than overflow: anything this large is replaced anyway.
            value = min(value * (hex ? 16 : 10) + digit, 0x11_0000)
            index += 1
        }
        guard index > digitsStart else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ";") { index += 1 }
        return (scalar(forCodePoint: value), index)
    }

    private static func scalar(forCodePoint value: UInt32) -> Unicode.Scalar {
        if let mapped = Windows1252.replacement(forC1: value) { return mapped }
        if value == 0 { return "\u{FFFD}" }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        if hex { return HexDigit.value(byte).map(UInt32.init) }
        return byte &- UInt8(ascii: "0") < 10 ? UInt32(byte - UInt8(ascii: "0")) : nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
    }

    private static let legacyWithoutSemicolon: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"]

    /// Latin-1's names, in order from U+00A0.
    private static let latin1Names = [
        "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect",
        "uml", "copy", "ordf", "laquo", "not", "shy", "reg", "macr",
        "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot",
        "cedil", "sup1", "ordm", "raquo", "frac14", "frac12", "frac34", "iquest",
        "Agrave", "Aacute", "Acirc", "Atilde", "Auml", "Aring", "AElig", "Ccedil",
        "Egrave", "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml",
        "ETH", "Ntilde", "Ograve", "Oacute", "Ocirc", "Otilde", "Ouml", "times",
        "Oslash", "Ugrave", "Uacute", "Ucirc", "Uuml", "Yacute", "THORN", "szlig",
        "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil",
        "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml",
        "eth", "ntilde", "ograve", "oacute", "ocirc", "otilde", "ouml", "divide",
        "oslash", "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
    ]

    private static let otherNames: [String: UInt32] = [
        "quot": 0x22, "amp": 0x26, "apos": 0x27, "lt": 0x3C, "gt": 0x3E,
        "QUOT": 0x22, "AMP": 0x26, "LT": 0x3C, "GT": 0x3E, "COPY": 0xA9, "REG": 0xAE,
        "OElig": 0x152, "oelig": 0x153, "Scaron": 0x160, "scaron": 0x161, "Yuml": 0x178, "fnof": 0x192,
        "circ": 0x2C6, "tilde": 0x2DC, "ensp": 0x2002, "emsp": 0x2003, "thinsp": 0x2009,
        "zwnj": 0x200C, "zwj": 0x200D, "lrm": 0x200E, "rlm": 0x200F, "hyphen": 0x2010, "dash": 0x2010,
        "ndash": 0x2013, "mdash": 0x2014, "lsquo": 0x2018, "rsquo": 0x2019, "sbquo": 0x201A,
        "ldquo": 0x201C, "rdquo": 0x201D, "bdquo": 0x201E, "dagger": 0x2020, "Dagger": 0x2021,
        "bull": 0x2022, "hellip": 0x2026, "permil": 0x2030, "prime": 0x2032, "Prime": 0x2033,
        "lsaquo": 0x2039, "rsaquo": 0x203A, "oline": 0x203E, "frasl": 0x2044, "euro": 0x20AC,
        "trade": 0x2122, "TRADE": 0x2122, "larr": 0x2190, "uarr": 0x2191, "rarr": 0x2192,
        "darr": 0x2193, "harr": 0x2194, "minus": 0x2212, "spades": 0x2660, "clubs": 0x2663,
        "hearts": 0x2665, "diams": 0x2666, "check": 0x2713, "star": 0x2606, "starf": 0x2605,
    ]

    private static let named: [String: Unicode.Scalar] = {
        var table: [String: Unicode.Scalar] = [:]
        for (offset, name) in latin1Names.enumerated() { table[name] = Unicode.Scalar(UInt8(0xA0 + offset)) }
        for (name, value) in otherNames { table[name] = Unicode.Scalar(value) }
        return table
    }()
}
