/// URLs as feeds and OPML files write them, made into URLs. Publishers paste file names with
/// spaces (`http://host/my episode.mp3`) and other characters a URL cannot hold but whose meaning
/// is plain; browsers encode them (the WHATWG URL standard) and so does podcli, rather than
/// call the URL "not an http or https URL".
public enum URLRepair {
    /// `url` with tabs and newlines removed (as WHATWG does) and, after the host, every byte a URL
    /// cannot hold percent-encoded: controls, space, `"`, `<`, `>`, `[`, `]`, `^`, `` ` ``, `{`,
    /// `|`, `}`, DEL, non-ASCII characters (as UTF-8) and a `%` that begins no escape. The
    /// scheme and host are left as they are (a space there has no meaning to guess).
    public static func encodingIllegalCharacters(_ url: String) -> String {
        let bytes = Array(url.utf8)
        let start = afterAuthority(bytes)
        guard bytes.indices.contains(where: { needsWork(bytes, at: $0, start: start) }) else { return url }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            guard index >= start, isIllegal(bytes, at: index) else {
                result.append(byte)
                continue
            }
            result += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func needsWork(_ bytes: [UInt8], at index: Int, start: Int) -> Bool {
        let byte = bytes[index]
        return byte == 0x09 || byte == 0x0A || byte == 0x0D || (index >= start && isIllegal(bytes, at: index))
    }

    private static func isIllegal(_ bytes: [UInt8], at index: Int) -> Bool {
        let byte = bytes[index]
        switch byte {
        case 0x00...0x20, 0x7F...0xFF: return true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            return true
        case UInt8(ascii: "%"):
            return
                !(index + 2 < bytes.count && HexDigit.value(bytes[index + 1]) != nil
                && HexDigit.value(bytes[index + 2]) != nil)
        default: return false
        }
    }

    /// Where the path begins: after `scheme://host`, or 0 for a URL with no authority (a
    /// relative one, `data:`).
    private static func afterAuthority(_ bytes: [UInt8]) -> Int {
        let separator = Array("://".utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            bytes[colon...].starts(with: separator)
        else { return 0 }
        let host = colon + separator.count
        return bytes[host...].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        }
            ?? bytes.count
    }
}
