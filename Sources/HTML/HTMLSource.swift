/// The text `HTMLParser` gives libxml2: the document, with what libxml2 2.9 would read otherwise
/// than podcli's rules written so that it reads them podcli's way.
///
/// - Every `&` becomes `&amp;`: libxml2 gives it back as written, and `HTMLDocument` decodes the
///   references with `HTMLEntity` (the HTML standard's rules; libxml2 knows HTML 4's names only,
///   in their exact case and with their semicolon).
/// - A `<` that starts no tag, or whose tag no `>` ends, is text (`&lt;`); libxml2 would take
///   `a <b c` at the end of the text for a tag, and `</>` for nothing.
/// - A CDATA section is text, written so that neither libxml2 nor `HTMLEntity` reads into it.
/// - Doctypes, `<!...>` and `<?...?>` are dropped; comments are kept for libxml2 to drop.
/// - A quote that never closes does not swallow the rest of the document: its tag ends at its
///   first `>`, and so does every later tag (libxml2 would read the attribute to the end).
/// - NUL, which ends libxml2's scans, becomes U+FFFD.
/// - The document is read as a page's body: it starts with `<body>`, and its `</body>` and
///   `</html>` are dropped. Text outside any element is then the body's, where libxml2 would
///   otherwise wrap it in a `<p>` the author never wrote (a paragraph break on screen). A `<html>`,
///   `<head>` or `<body>` of the document's own is then misplaced, and libxml2 ignores it.
///
/// One pass: every scan either consumes what it scanned or, finding nothing, switches off what it
/// was looking for, so malformed input stays linear.
enum HTMLSource {
    static func prepared(_ html: String) -> [UInt8] {
        var html = html
        return html.withUTF8 { bytes in
            var preparer = Preparer(input: bytes)
            preparer.output.append(contentsOf: "<body>".utf8)
            preparer.run()
            return preparer.output
        }
    }

    private struct Preparer {
        let input: UnsafeBufferPointer<UInt8>
        var output: [UInt8] = []
        /// Cleared after a quoted attribute ran to the end: from then on a tag ends at its first `>`.
        var quotesAreReliable = true
        /// Cleared when no `>` is left: every later `<` is text.
        var tagsArePossible = true

        init(input: UnsafeBufferPointer<UInt8>) {
            self.input = input
            output.reserveCapacity(input.count + input.count / 16)
        }

        mutating func run() {
            var index = 0
            while index < input.count {
                if input[index] == UInt8(ascii: "<") {
                    index = markup(at: index)
                } else {
                    appendEscaped(input[index])
                    index += 1
                }
            }
        }

        /// Writes the markup starting at `start` (a `<`); returns the index after it.
        private mutating func markup(at start: Int) -> Int {
            if hasPrefix("<!--", at: start) {
                let end = find("-->", from: start + 4).map { $0 + 3 } ?? input.count
                output.append(contentsOf: input[start..<end].lazy.map { $0 == 0 ? UInt8(ascii: " ") : $0 })
                return end
            }
            if hasPrefix("<![CDATA[", at: start) {
                let end = find("]]>", from: start + 9) ?? input.count
                for byte in input[(start + 9)..<end] {
                    switch byte {
                    // libxml2 makes it `&amp;`, which `HTMLEntity` makes `&`.
                    case UInt8(ascii: "&"): output.append(contentsOf: "&amp;amp;".utf8)
                    case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
                    default: appendEscaped(byte)
                    }
                }
                return min(end + 3, input.count)
            }
            guard tagsArePossible, startsTag(at: start), let end = tagEnd(from: start) else {
                output.append(contentsOf: "&lt;".utf8)
                return start + 1
            }
            let next = input[start + 1]
            guard next != UInt8(ascii: "!"), next != UInt8(ascii: "?") else { return end + 1 }
            if next == UInt8(ascii: "/"), endsPage(start + 2..<end) { return end + 1 }
            for byte in input[start...end] {
                switch byte {
                case UInt8(ascii: "\"") where !quotesAreReliable: output.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'") where !quotesAreReliable: output.append(contentsOf: "&#39;".utf8)
                default: appendEscaped(byte)
                }
            }
            return end + 1
        }

        /// Whether the end tag whose name starts the range is `</body>` or `</html>`.
        private func endsPage(_ range: Range<Int>) -> Bool {
            var nameEnd = range.lowerBound
            while nameEnd < range.upperBound, Self.isLetter(input[nameEnd]) { nameEnd += 1 }
            guard nameEnd - range.lowerBound == 4 else { return false }
            return hasPrefix("body", at: range.lowerBound) || hasPrefix("html", at: range.lowerBound)
        }

        private mutating func appendEscaped(_ byte: UInt8) {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case 0: output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            default: output.append(byte)
            }
        }

        /// A letter, `/` and a letter, `!` or `?` after the `<`.
        private func startsTag(at start: Int) -> Bool {
            guard start + 1 < input.count else { return false }
            let next = input[start + 1]
            if next == UInt8(ascii: "/") { return start + 2 < input.count && Self.isLetter(input[start + 2]) }
            return Self.isLetter(next) || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
        }

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

        private func find(_ needle: StaticString, from start: Int) -> Int? {
            let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
            var position = start
            while position + pattern.count <= input.count {
                if input[position] == pattern[0], matches(pattern, at: position, ignoringCase: false) {
                    return position
                }
                position += 1
            }
            return nil
        }

        private func hasPrefix(_ prefix: StaticString, at start: Int) -> Bool {
            let pattern = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            return start + pattern.count <= input.count && matches(pattern, at: start, ignoringCase: true)
        }

        private func matches(_ pattern: UnsafeBufferPointer<UInt8>, at start: Int, ignoringCase: Bool) -> Bool {
            pattern.indices.allSatisfy { offset in
                let byte = input[start + offset]
                let expected = pattern[offset]
                return byte == expected || (ignoringCase && Self.isLetter(byte) && byte | 0x20 == expected | 0x20)
            }
        }

        private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    }
}
