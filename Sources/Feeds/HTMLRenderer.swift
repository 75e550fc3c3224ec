import Strings

/// One pass over an HTML description's bytes, writing `PlainText`'s output.
///
/// Separators are held back (`pendingSpace`, `pendingBreaks`) and written only before the next
/// text, so leading, trailing and repeated whitespace never reaches the output. Every scan either
/// consumes what it scanned or, when it finds nothing, switches off what it was looking for, which
/// keeps the pass linear on malformed input.
struct HTMLRenderer {
    private let input: UnsafeBufferPointer<UInt8>
    /// Whether a newline in the text is a line break (no block tags) or only whitespace.
    private let newlinesBreakLines: Bool
    private var output: [UInt8] = []
    private var index = 0

    private var pendingSpace = false
    /// 1 for a line break, 2 for a paragraph (one blank line).
    private var pendingBreaks = 0
    /// The bullet of a list item with no text yet; a paragraph opened inside it doesn't add a break.
    private var pendingBullet: [UInt8]?
    private var listDepth = 0
    /// The open link: its target, and where its text starts in `output` once it has any.
    private var link: (href: [UInt8], textStart: Int?)?

    /// Cleared after a quoted attribute ran to the end: from then on a tag ends at its first `>`.
    private var quotesAreReliable = true
    /// Cleared when no `>` is left: every later `<` is text.
    private var tagsArePossible = true

    init(input: UnsafeBufferPointer<UInt8>, newlinesBreakLines: Bool) {
        self.input = input
        self.newlinesBreakLines = newlinesBreakLines
        output.reserveCapacity(input.count)
    }

    mutating func run() {
        while index < input.count {
            let byte = input[index]
            switch byte {
            case UInt8(ascii: "<"):
                if tagsArePossible, let next = markup(at: index) {
                    index = next
                } else {
                    appendText(byte)
                    index += 1
                }
            case UInt8(ascii: "&"):
                if let (scalar, end) = HTMLEntity.decode(input, at: index) {
                    append(scalar)
                    index = end
                } else {
                    appendText(byte)
                    index += 1
                }
            case 0xC2 where index + 1 < input.count && input[index + 1] == 0xA0:
                whitespace(UInt8(ascii: " "))
                index += 2
            default:
                if Self.isSpace(byte) {
                    // CRLF is one line break.
                    if !(byte == UInt8(ascii: "\r") && index + 1 < input.count && input[index + 1] == 0x0A) {
                        whitespace(byte)
                    }
                    index += 1
                } else {
                    // The first byte is text even when it is special (0xC2 not followed by 0xA0, as
                    // in "©"): consuming it is what keeps the loop moving.
                    let start = index
                    index += 1
                    while index < input.count, !Self.isSpecial(input[index]) { index += 1 }
                    appendText(UnsafeBufferPointer(rebasing: input[start..<index]))
                }
            }
        }
        closeLink()
    }

    func result() -> String {
        var end = output.count
        while end > 0, Self.isSpace(output[end - 1]) { end -= 1 }
        return String(decoding: output[..<end], as: UTF8.self)
    }

    // MARK: - Output

    private mutating func whitespace(_ byte: UInt8) {
        if newlinesBreakLines, byte == 0x0A || byte == 0x0D {
            pendingBreaks = min(pendingBreaks + 1, 2)
        } else {
            pendingSpace = true
        }
    }

    private mutating func requestBreak(_ breaks: Int) {
        guard pendingBullet == nil else { return }
        pendingBreaks = max(pendingBreaks, breaks)
    }

    /// Writes the separators held back, then the bullet of a list item that was waiting for text.
    private mutating func flushSeparators() {
        if !output.isEmpty {
            if pendingBreaks > 0 {
                while output.last == UInt8(ascii: " ") { output.removeLast() }
                output.append(contentsOf: repeatElement(0x0A, count: pendingBreaks))
            } else if pendingSpace, let last = output.last, last != UInt8(ascii: " "), last != 0x0A {
                output.append(UInt8(ascii: " "))
            }
        }
        pendingBreaks = 0
        pendingSpace = false
        if let bullet = pendingBullet {
            pendingBullet = nil
            output.append(contentsOf: bullet)
        }
        // Set here, after the separators and bullet, so they are not taken for the link's text.
        if link != nil, link?.textStart == nil { link?.textStart = output.count }
    }

    private mutating func appendText(_ bytes: UnsafeBufferPointer<UInt8>) {
        flushSeparators()
        output.append(contentsOf: bytes)
    }

    private mutating func appendText(_ byte: UInt8) {
        flushSeparators()
        output.append(byte)
    }

    private mutating func append(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x20, 0x09...0x0D, 0xA0: whitespace(UInt8(truncatingIfNeeded: scalar.value))
        case 0xAD: break  // A soft hyphen only says where a word may break.
        default:
            flushSeparators()
            output.append(contentsOf: UTF8.encode(scalar)!)
        }
    }

    // MARK: - Markup

    /// Handles the markup starting at `start` (a `<`) and returns the index after it, or nil if
    /// the `<` starts no markup and is text.
    private mutating func markup(at start: Int) -> Int? {
        guard start + 1 < input.count else { return nil }
        let next = input[start + 1]
        if next == UInt8(ascii: "!") {
            if hasPrefix("<!--", at: start) {
                return find("-->", from: start + 4).map { $0 + 3 } ?? input.count
            }
            if hasPrefix("<![CDATA[", at: start) {
                let end = find("]]>", from: start + 9) ?? input.count
                appendLiteral(start + 9..<end)
                return min(end + 3, input.count)
            }
            return tagEnd(from: start).map { $0 + 1 }
        }
        if next == UInt8(ascii: "?") { return tagEnd(from: start).map { $0 + 1 } }
        let closing = next == UInt8(ascii: "/")
        let nameStart = start + (closing ? 2 : 1)
        guard nameStart < input.count, Self.isLetter(input[nameStart]), let end = tagEnd(from: start) else {
            return nil
        }
        var nameEnd = nameStart
        while nameEnd < end, Self.isLetter(input[nameEnd]) || Self.isDigit(input[nameEnd]) { nameEnd += 1 }
        let name = Self.tagName(UnsafeBufferPointer(rebasing: input[nameStart..<nameEnd]))
        return element(name, closing: closing, attributes: nameEnd..<end) ?? end + 1
    }

    /// Acts on one tag; returns where to continue when that isn't right after the tag.
    private mutating func element(_ name: String, closing: Bool, attributes: Range<Int>) -> Int? {
        switch name {
        case "br":
            pendingBreaks = min(pendingBreaks + 1, 2)
        case "p", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "hr", "table", "dl", "figure",
            "section", "article", "header", "footer", "aside", "address":
            requestBreak(2)
        case "div", "tr", "dt", "dd", "caption", "figcaption", "main", "nav", "form", "details", "summary":
            requestBreak(1)
        case "ul", "ol":
            if closing { listDepth = max(listDepth - 1, 0) }
            requestBreak(listDepth == 0 ? 2 : 1)
            if !closing { listDepth += 1 }
        case "li":
            requestBreak(1)
            if !closing {
                pendingBullet = Array(repeating: UInt8(ascii: " "), count: 2 * max(listDepth - 1, 0)) + Self.bullet
            }
        case "td", "th":
            pendingSpace = true
        case "a":
            closeLink()
            if !closing { link = (attribute("href", in: attributes) ?? [], nil) }
        case "script", "style":
            guard !closing else { return nil }
            // Their content is not text; it ends at the matching end tag, or runs to the end.
            guard let close = find("</\(name)", from: attributes.upperBound + 1, ignoringCase: true) else {
                return input.count
            }
            return (tagEnd(from: close) ?? input.count - 1) + 1
        default:
            break
        }
        return nil
    }

    /// Ends the open link, adding " (URL)" when the text doesn't already say where it goes.
    private mutating func closeLink() {
        guard let (href, textStart) = link else { return }
        link = nil
        guard let textStart, textStart < output.count else { return }
        let text = output[textStart...]
        guard !href.isEmpty, href.first != UInt8(ascii: "#"),
            !Self.startsWith(href[...], "javascript:"), Self.comparable(href[...]) != Self.comparable(text)
        else { return }
        pendingSpace = true
        flushSeparators()
        output.append(UInt8(ascii: "("))
        output.append(contentsOf: href)
        output.append(UInt8(ascii: ")"))
    }

    /// A URL without its scheme, `mailto:` and trailing slash, lowercased, for comparing with text.
    private static func comparable(_ url: ArraySlice<UInt8>) -> [UInt8] {
        var rest = url
        for scheme in ["https://", "http://", "mailto:"] where startsWith(rest, scheme) {
            rest = rest.dropFirst(scheme.utf8.count)
            break
        }
        while rest.last == UInt8(ascii: "/") { rest = rest.dropLast() }
        return rest.map { isLetter($0) ? $0 | 0x20 : $0 }
    }

    /// Text between `<![CDATA[` and `]]>`: no tags or references, but whitespace still collapses.
    private mutating func appendLiteral(_ range: Range<Int>) {
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = input[position]
            if byte == 0xC2, position + 1 < range.upperBound, input[position + 1] == 0xA0 {
                whitespace(UInt8(ascii: " "))
                position += 1
            } else if Self.isSpace(byte) {
                whitespace(byte)
            } else {
                appendText(byte)
            }
            position += 1
        }
    }

    /// The decoded, trimmed value of the attribute `wanted` among the tag bytes in `range`.
    private func attribute(_ wanted: String, in range: Range<Int>) -> [UInt8]? {
        var position = range.lowerBound
        while position < range.upperBound {
            while position < range.upperBound, Self.isSpace(input[position]) || input[position] == UInt8(ascii: "/") {
                position += 1
            }
            let nameStart = position
            while position < range.upperBound, !Self.isSpace(input[position]),
                input[position] != UInt8(ascii: "="), input[position] != UInt8(ascii: "/")
            {
                position += 1
            }
            let name = input[nameStart..<position]
            while position < range.upperBound, Self.isSpace(input[position]) { position += 1 }
            guard position < range.upperBound, input[position] == UInt8(ascii: "=") else { continue }
            position += 1
            while position < range.upperBound, Self.isSpace(input[position]) { position += 1 }
            var valueStart = position
            var valueEnd: Int
            if position < range.upperBound,
                input[position] == UInt8(ascii: "\"") || input[position] == UInt8(ascii: "'")
            {
                let quote = input[position]
                valueStart += 1
                valueEnd = valueStart
                while valueEnd < range.upperBound, input[valueEnd] != quote { valueEnd += 1 }
                position = min(valueEnd + 1, range.upperBound)
            } else {
                valueEnd = position
                while valueEnd < range.upperBound, !Self.isSpace(input[valueEnd]) { valueEnd += 1 }
                position = valueEnd
            }
            if Self.startsWith(name, wanted), name.count == wanted.utf8.count {
                return decodeReferences(valueStart..<valueEnd)
            }
        }
        return nil
    }

    private func decodeReferences(_ range: Range<Int>) -> [UInt8] {
        var value: [UInt8] = []
        var position = range.lowerBound
        while position < range.upperBound {
            if input[position] == UInt8(ascii: "&"), let (scalar, end) = HTMLEntity.decode(input, at: position),
                end <= range.upperBound
            {
                value.append(contentsOf: UTF8.encode(scalar)!)
                position = end
            } else {
                value.append(input[position])
                position += 1
            }
        }
        let leading = value.prefix { Self.isSpace($0) }.count
        value.removeFirst(leading)
        while let last = value.last, Self.isSpace(last) { value.removeLast() }
        return value
    }

    // MARK: - Scanning

    /// The index of the `>` ending the tag that starts at `start`, or nil if there is none.
    private mutating func tagEnd(from start: Int) -> Int? {
        if quotesAreReliable {
            // A `>` inside a quoted attribute value doesn't end the tag.
            var quote: UInt8?
            var afterEquals = false
            var position = start + 1
            while position < input.count {
                let byte = input[position]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: ">") {
                    return position
                } else if byte == UInt8(ascii: "=") {
                    afterEquals = true
                } else if afterEquals, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                    afterEquals = false
                } else if !Self.isSpace(byte) {
                    afterEquals = false
                }
                position += 1
            }
            guard quote != nil else {
                tagsArePossible = false
                return nil
            }
            quotesAreReliable = false
        }
        guard let end = find(">", from: start + 1) else {
            tagsArePossible = false
            return nil
        }
        return end
    }

    private func find(_ needle: String, from start: Int, ignoringCase: Bool = false) -> Int? {
        let pattern = Array(needle.utf8)
        guard start >= 0, input.count - start >= pattern.count else { return nil }
        var position = start
        while position + pattern.count <= input.count {
            if Self.matches(pattern, input[position..<position + pattern.count], ignoringCase: ignoringCase) {
                return position
            }
            position += 1
        }
        return nil
    }

    private func hasPrefix(_ prefix: String, at start: Int) -> Bool {
        let pattern = Array(prefix.utf8)
        return input.count - start >= pattern.count
            && Self.matches(pattern, input[start..<start + pattern.count], ignoringCase: true)
    }

    private static func matches(_ pattern: [UInt8], _ bytes: Slice<UnsafeBufferPointer<UInt8>>, ignoringCase: Bool)
        -> Bool
    {
        zip(pattern, bytes).allSatisfy { expected, byte in
            expected == byte || (ignoringCase && isLetter(byte) && expected | 0x20 == byte | 0x20)
        }
    }

    private static func startsWith<C: Collection<UInt8>>(_ bytes: C, _ prefix: String) -> Bool {
        bytes.count >= prefix.utf8.count
            && zip(bytes, prefix.utf8).allSatisfy { byte, expected in
                byte == expected || (isLetter(byte) && byte | 0x20 == expected)
            }
    }

    // MARK: - Classification

    private static let bullet = Array("• ".utf8)

    /// The lowercased tag name; names too long for any tag handled here come back empty, so an
    /// absurd name costs no allocation.
    private static func tagName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= 12 else { return "" }
        return String(decoding: bytes.lazy.map { isLetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether the text has a tag that lays out lines, so its own newlines are only whitespace.
    static func hasBlockTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var position = 0
        while position + 1 < bytes.count {
            defer { position += 1 }
            guard bytes[position] == UInt8(ascii: "<") else { continue }
            var nameStart = position + 1
            if bytes[nameStart] == UInt8(ascii: "/") { nameStart += 1 }
            var nameEnd = nameStart
            while nameEnd < bytes.count, nameEnd - nameStart <= 12, isLetter(bytes[nameEnd]) || isDigit(bytes[nameEnd])
            {
                nameEnd += 1
            }
            guard nameEnd > nameStart, nameEnd == bytes.count || !isLetter(bytes[nameEnd]) else { continue }
            switch tagName(UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd])) {
            case "p", "br", "div", "li", "ul", "ol", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "table",
                "tr", "pre", "hr":
                return true
            default:
                continue
            }
        }
        return false
    }

    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == 0xC2 || isSpace(byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
