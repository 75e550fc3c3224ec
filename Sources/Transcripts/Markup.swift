import Strings

/// What cue text is made of, once its markup is read: text (character references decoded, except
/// in SRT) and the tags between it.
enum MarkupToken: Equatable {
    case text(String)
    /// `name` lowercased, without WebVTT's classes (`v` of `<v.loud Sam>`); `annotation` what
    /// follows the name (the speaker of a WebVTT voice, the attributes of an SRT tag).
    case startTag(name: String, annotation: String)
    case endTag(name: String)
}

/// The smallest reader of tags and text that cue text needs: WebVTT's (`<v Sam>`, `<c.loud>`,
/// `<00:01.000>`, which are not HTML) and the HTML-ish tags of SRT (`<i>`, `<font color=...>`).
/// HTML transcripts are read by libxml2's HTML parser instead (`HTMLDocument`). A `<` that starts
/// no tag, or one never closed by `>`, is text.
enum Markup {
    enum Dialect {
        /// Every `<` that is closed starts a tag (timestamps too), and references are decoded.
        case webVTT
        /// A tag starts with a letter, `/` or `!`; comments are not text; `&` is only text: SRT has
        /// no character references ("Q&amp;A" is what it says).
        case subRip
    }

    static func tokens(_ text: String, _ dialect: Dialect) -> [MarkupToken] {
        var text = text
        return text.withUTF8 {
            var scanner = Scanner(bytes: $0, dialect: dialect)
            return scanner.tokens()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let dialect: Dialect
        var read: [MarkupToken] = []
        var pending: [UInt8] = []
        /// Where the last search for a `>` began, and the `>` it found.
        var lastBracket: (searchedFrom: Int, found: Int?)?

        init(bytes: UnsafeBufferPointer<UInt8>, dialect: Dialect) {
            self.bytes = bytes
            self.dialect = dialect
        }

        mutating func tokens() -> [MarkupToken] {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<"), let end = tagEnd(from: index) {
                    index = tag(from: index, to: end)
                } else if byte == UInt8(ascii: "&"), dialect != .subRip,
                    let reference = HTMLEntity.decode(bytes, at: index)
                {
                    pending.append(contentsOf: String(reference.scalar).utf8)
                    index = reference.end
                } else {
                    pending.append(byte)
                    index += 1
                }
            }
            flush()
            return read
        }

        /// The index of the `>` closing a tag that starts at `start`, nil if none does. An unclosed
        /// comment runs to the end, as in HTML.
        private mutating func tagEnd(from start: Int) -> Int? {
            guard start + 1 < bytes.count else { return nil }
            let next = bytes[start + 1]
            if dialect != .webVTT {
                let isLetter = (next | 0x20) &- UInt8(ascii: "a") < 26
                guard isLetter || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") else { return nil }
                if matches("<!--", at: start) { return find("-->", from: start + 4).map { $0 + 2 } ?? bytes.count - 1 }
            }
            return closingBracket(after: start)
        }

        /// The first `>` after `start`. The answer is kept: a file of many `<` and no `>` is read
        /// once, not once for each `<`.
        private mutating func closingBracket(after start: Int) -> Int? {
            if let last = lastBracket, last.searchedFrom <= start, (last.found ?? bytes.count) > start {
                return last.found
            }
            let found = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: ">"))
            lastBracket = (start, found)
            return found
        }

        /// Reads the tag `bytes[start...end]` into a token; returns where the text goes on.
        private mutating func tag(from start: Int, to end: Int) -> Int {
            flush()
            let inside = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)
            if inside.hasPrefix("!") || inside.hasPrefix("?") { return end + 1 }  // comment, doctype
            let closing = inside.hasPrefix("/")
            let body = closing ? inside.dropFirst() : inside[...]
            let nameEnd =
                body.firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "/" } ?? body.endIndex
            var name = body[..<nameEnd].lowercased()
            if dialect == .webVTT, let dot = name.firstIndex(of: ".") { name = String(name[..<dot]) }
            guard !closing else {
                read.append(.endTag(name: name))
                return end + 1
            }
            read.append(.startTag(name: name, annotation: String(body[nameEnd...].dropFirst())))
            return end + 1
        }

        private mutating func flush() {
            guard !pending.isEmpty else { return }
            read.append(.text(String(decoding: pending, as: UTF8.self)))
            pending.removeAll(keepingCapacity: true)
        }

        private func matches(_ word: String, at index: Int) -> Bool {
            let word = Array(word.utf8)
            guard index + word.count <= bytes.count else { return false }
            return word.indices.allSatisfy { bytes[index + $0] == word[$0] }
        }

        private func find(_ word: String, from start: Int) -> Int? {
            guard start < bytes.count else { return nil }
            return (start..<bytes.count).first { matches(word, at: $0) }
        }
    }
}
