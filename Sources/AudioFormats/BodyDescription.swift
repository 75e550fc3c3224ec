/// What a body that is not audio is, in a user's words: what the download refusal says came.
enum BodyDescription {
    static func describe(_ bytes: [UInt8]) -> String {
        if looksLikeMarkup(bytes) {
            let text = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
            if text.contains("<html") || text.contains("<!doctype html") || text.contains("<body") {
                return "an HTML page"
            }
            return "an XML document"
        }
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"), (Array("%PDF".utf8), "a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"), ([0x1F, 0x8B], "gzip-compressed data"),
        ]
        if let match = signatures.first(where: { bytes.starts(with: $0.0) }) { return match.1 }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return "a WebP image"
        }
        if let first = bytes.first(where: { !isWhitespace($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        {
            return isText(bytes) ? "JSON or other text" : "unrecognised data"
        }
        if isText(bytes) { return "plain text" }
        return "unrecognised data: no MP3, M4A, AAC, Ogg (Opus, Vorbis) or FLAC audio at its start"
    }

    /// The first byte after whitespace and a byte-order mark is '<'.
    static func looksLikeMarkup(_ bytes: [UInt8]) -> Bool {
        let start = bytes.drop { isWhitespace($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        return start.first == UInt8(ascii: "<")
    }

    /// Valid UTF-8 with no control characters but whitespace (the window may cut a last
    /// character: that is not binary).
    static func isText(_ bytes: [UInt8]) -> Bool {
        var decoder = UTF8()
        var iterator = withoutPartialLastCharacter(bytes).makeIterator()
        var sawScalar = false
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                sawScalar = true
                if scalar.value < 0x20 && !isWhitespace(UInt8(scalar.value)) || scalar.value == 0x7F { return false }
            case .emptyInput:
                return sawScalar
            case .error:
                return false
            }
        }
    }

    /// `bytes` without a multi-byte character the end of the window cut.
    private static func withoutPartialLastCharacter(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        for back in 1...min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            guard byte & 0xC0 == 0x80 else {
                // A lead byte whose sequence is longer than what is left: cut it off.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return length > back ? bytes.dropLast(back) : bytes[...]
            }
        }
        return bytes[...]
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
