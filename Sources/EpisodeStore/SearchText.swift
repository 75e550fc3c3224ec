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
        var output: [UInt8] = []
        html.withUTF8 { words(ofHTML: $0, into: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the words of the UTF-8 `bytes` to `output`, in one pass over bytes (the search
    /// index's triggers call it for every description they index).
    static func words(ofHTML bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + bytes.count)
        var index = 0
        var copiedFrom = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") else {
                index += 1
                continue
            }
            let replacement: (end: Int, scalar: Unicode.Scalar)?
            if byte == UInt8(ascii: "<") {
                replacement = endOfMarkup(bytes, at: index).map { ($0, " ") }
            } else {
                replacement = HTMLEntity.decode(bytes, at: index).map { ($0.end, $0.scalar) }
            }
            guard let replacement else {
                index += 1
                continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedFrom..<index]))
            output.append(contentsOf: String(replacement.scalar).utf8)
            index = replacement.end
            copiedFrom = index
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copiedFrom..<bytes.count]))
    }

    /// The index after the tag or comment that starts at `start` (a `<`), or nil when none does.
    private static func endOfMarkup(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let next = start + 1
        guard next < bytes.count else { return nil }
        let opener = bytes[next]
        let isLetter = (opener | 0x20) &- UInt8(ascii: "a") < 26
        guard isLetter || opener == UInt8(ascii: "/") || opener == UInt8(ascii: "!") || opener == UInt8(ascii: "?")
        else { return nil }
        var index = next
        if isComment(bytes, at: start) {
            // "<!--" ... "-->"
            index += 3
            while index + 2 < bytes.count {
                if bytes[index] == UInt8(ascii: "-") && bytes[index + 1] == UInt8(ascii: "-")
                    && bytes[index + 2] == UInt8(ascii: ">")
                {
                    return index + 3
                }
                index += 1
            }
            return bytes.count
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
        return min(index + 1, bytes.count)
    }

    private static func isComment(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        start + 3 < bytes.count && bytes[start + 1] == UInt8(ascii: "!") && bytes[start + 2] == UInt8(ascii: "-")
            && bytes[start + 3] == UInt8(ascii: "-")
    }
}
