/// The strings of ID3v2 frames: each begins with (or follows) an encoding byte — 0 Latin-1,
/// 1 UTF-16 with a byte-order mark, 2 UTF-16BE, 3 UTF-8 — and ends at a terminator of one zero
/// byte, or two aligned ones in UTF-16.
enum ID3Text {
    /// The first string of a text frame's body (TIT2: the encoding byte, then the text); nil
    /// when it is empty.
    static func firstValue(ofTextFrame body: [UInt8]) -> String? {
        guard let encoding = body.first else { return nil }
        let text = decode(body[1..<terminated(body, from: 1, encoding: encoding).end], encoding: encoding)
        return text.isEmpty ? nil : text
    }

    /// The URL of a WXXX frame (encoding, a description in it, then the URL in Latin-1) or of
    /// any other W*** frame (the URL alone).
    static func url(ofFrame id: String, body: [UInt8]) -> String? {
        var start = 0
        if id == "WXXX" {
            guard let encoding = body.first else { return nil }
            start = terminated(body, from: 1, encoding: encoding).next
        }
        guard start < body.count else { return nil }
        let url = decode(body[start..<terminated(body, from: start, encoding: 0).end], encoding: 0)
        return url.isEmpty ? nil : url
    }

    /// Where the string starting at `start` ends (its terminator, or the end of `bytes`) and where
    /// what follows it begins.
    static func terminated(_ bytes: [UInt8], from start: Int, encoding: UInt8) -> (end: Int, next: Int) {
        let wide = encoding == 1 || encoding == 2
        var index = start
        while index < bytes.count {
            if !wide && bytes[index] == 0 { return (index, index + 1) }
            if wide && index + 1 < bytes.count && bytes[index] == 0 && bytes[index + 1] == 0 {
                return (index, index + 2)
            }
            index += wide ? 2 : 1
        }
        return (bytes.count, bytes.count)
    }

    static func decode(_ bytes: ArraySlice<UInt8>, encoding: UInt8) -> String {
        switch encoding {
        case 1, 2:
            var units = Array(bytes)
            var bigEndian = encoding == 2
            // UTF-16 (1) says its order with a byte-order mark; without one, taggers wrote little-endian.
            if encoding == 1 && units.count >= 2 && (units[0], units[1]) == (0xFE, 0xFF) {
                bigEndian = true
                units.removeFirst(2)
            } else if encoding == 1 && units.count >= 2 && (units[0], units[1]) == (0xFF, 0xFE) {
                units.removeFirst(2)
            }
            var codeUnits: [UInt16] = []
            codeUnits.reserveCapacity(units.count / 2)
            for index in stride(from: 0, to: units.count - 1, by: 2) {
                let (high, low) = bigEndian ? (units[index], units[index + 1]) : (units[index + 1], units[index])
                codeUnits.append(UInt16(high) << 8 | UInt16(low))
            }
            return String(decoding: codeUnits, as: UTF16.self)
        case 3:
            return String(decoding: bytes, as: UTF8.self)
        default:
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        }
    }
}
