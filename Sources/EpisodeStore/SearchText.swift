import Strings

/// The words of a description for the search index: its text without the HTML around it.
///
/// Tags and comments become spaces (so `<p>a</p><p>b</p>` is two words) and character references
/// are decoded (`caf&eacute;` is found by "cafe"), so a search finds what a reader sees and not
/// `href`, `strong` or `nbsp`. A `<` that opens no tag (a plain-text "a < b") is kept. The index
/// is given the same words whenever the same description is read, so this must stay a pure
/// function of its input: the search index's deletes depend on it.
enum SearchText {
    static func words(ofHTML html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<"), let end = endOfMarkup(bytes, at: index) {
                    output.append(UInt8(ascii: " "))
                    index = end
                } else if byte == UInt8(ascii: "&"), let (scalar, end) = HTMLEntity.decode(bytes, at: index) {
                    output.append(contentsOf: String(scalar).utf8)
                    index = end
                } else {
                    output.append(byte)
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// The index after the tag or comment that starts at `start` (a `<`), or nil when none does.
    private static func endOfMarkup(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let next = start + 1
        guard next < bytes.count else { return nil }
        let opener = bytes[next]
        let isLetter = (opener | 0x20) &- UInt8(ascii: "a") < 26
        guard isLetter || opener == UInt8(ascii: "/") || opener == UInt8(ascii: "!") || opener == UInt8(ascii: "?")
        else { return nil }
        if bytes[next...].starts(with: "!--".utf8) {
            return find("-->".utf8, in: bytes, from: next + 3).map { $0 + 3 } ?? bytes.count
        }
        return find(">".utf8, in: bytes, from: next).map { $0 + 1 } ?? bytes.count
    }

    private static func find(
        _ needle: String.UTF8View, in bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index...].starts(with: needle) { return index }
            index += 1
        }
        return nil
    }
}
