import HTML

/// One pass over an HTML description's events (`HTMLDocument`), writing `PlainText`'s output.
///
/// Separators are held back (`pendingSpace`, `pendingBreaks`) and written only before the next
/// text, so leading, trailing and repeated whitespace never reaches the output.
struct HTMLRenderer {
    /// Whether a newline in the text is a line break (no block tags) or only whitespace.
    private let newlinesBreakLines: Bool
    private var output: [UInt8] = []

    private var pendingSpace = false
    /// 1 for a line break, 2 for a paragraph (one blank line).
    private var pendingBreaks = 0
    /// The bullet of a list item with no text yet; a paragraph opened inside it doesn't add a break.
    private var pendingBullet: [UInt8]?
    private var listDepth = 0
    /// The open link: its target, and where its text starts in `output` once it has any.
    private var link: (href: [UInt8], textStart: Int?)?

    /// Renders `events`; `sizeHint` is the length of the HTML they came from.
    static func render(_ events: [HTMLEvent], sizeHint: Int) -> String {
        var renderer = HTMLRenderer(newlinesBreakLines: !hasBlockTag(events))
        renderer.output.reserveCapacity(sizeHint)
        for event in events {
            switch event {
            case .start(let name, let attributes): renderer.element(name, closing: false, attributes: attributes)
            case .end(let name): renderer.element(name, closing: true, attributes: [])
            case .text(let text): renderer.appendText(text)
            }
        }
        renderer.closeLink()
        return renderer.result()
    }

    private init(newlinesBreakLines: Bool) {
        self.newlinesBreakLines = newlinesBreakLines
    }

    private func result() -> String {
        var end = output.count
        while end > 0, Self.isSpace(output[end - 1]) { end -= 1 }
        return String(decoding: output[..<end], as: UTF8.self)
    }

    // MARK: - Output

    private mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 {
                    pendingSpace = true  // A no-break space is whitespace here.
                    index += 2
                } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xAD {
                    index += 2  // A soft hyphen only says where a word may break.
                } else if Self.isSpace(byte) {
                    // CRLF is one line break.
                    if !(byte == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == 0x0A) {
                        whitespace(byte)
                    }
                    index += 1
                } else {
                    let start = index
                    index += 1
                    while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != 0xC2 { index += 1 }
                    flushSeparators()
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                }
            }
        }
    }

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

    // MARK: - Elements

    private mutating func element(_ name: String, closing: Bool, attributes: [HTMLAttribute]) {
        switch name {
        case "br":
            // libxml2 ends every `<br>` at once: only its start is a break.
            if !closing { pendingBreaks = min(pendingBreaks + 1, 2) }
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
            if !closing { link = (Array((attributes.value(of: "href") ?? "").utf8), nil) }
        default:
            break
        }
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

    private static func startsWith<C: Collection<UInt8>>(_ bytes: C, _ prefix: String) -> Bool {
        bytes.count >= prefix.utf8.count
            && zip(bytes, prefix.utf8).allSatisfy { byte, expected in
                byte == expected || (isLetter(byte) && byte | 0x20 == expected)
            }
    }

    // MARK: - Classification

    private static let bullet = Array("• ".utf8)

    /// Whether the document has a tag that lays out lines, so its own newlines are only whitespace.
    private static func hasBlockTag(_ events: [HTMLEvent]) -> Bool {
        events.contains { event in
            switch event {
            case .start(let name, _), .end(let name):
                switch name {
                case "p", "br", "div", "li", "ul", "ol", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "table",
                    "tr", "pre", "hr":
                    return true
                default:
                    return false
                }
            case .text:
                return false
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
}
