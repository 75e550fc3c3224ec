/// Counts the attributes of each start tag in the bytes of a document as they are fed, before
/// libxml2 reads them: libxml2 checks every attribute of an element against every other for
/// duplicates, so 200,000 on one element took 36 s (500,000, 262 s). A tag with more than
/// `limit` is refused before libxml2 has its `>`, and the push parser, which waits for a whole
/// tag, never parses it.
///
/// An attribute is an `=` outside quotes inside a start tag. Comments, CDATA sections,
/// processing instructions and declarations are skipped to their ends, so an `=` in them (or a
/// `<` in a CDATA section's HTML) is not counted; the document type ends where libxml2 ends it,
/// past the quoted literals and the internal subset, whose `>` and quotes could hide a tag.
///
/// The characters are read as libxml2 reads them: UTF-16 and UTF-32 in their code units (told
/// from the first four bytes as libxml2 tells them), every other document in bytes. Counting
/// bytes is sound only in an encoding where the markup's ASCII bytes mean themselves, so a
/// document declaring any other (UTF-7, where `=` is `+AD0-`; EBCDIC; ISO-2022) is refused, and
/// in the encodings whose second bytes may be `[` or `]` (Shift_JIS, Big5, GBK, GB18030) the
/// byte after a lead byte is not markup.
struct StartTagScanner {
    /// More attributes than any feed has (a few on an enclosure, a dozen namespaces on the root).
    static let limit = 1_000
    /// An XML declaration is a few dozen characters; past this (blanks not counted), its
    /// encoding could hide where no reader looks.
    static let declarationLimit = 1_024

    enum Refusal: Equatable {
        /// A start tag with more than `limit` attributes, on this line.
        case tooManyAttributes(line: Int)
        /// The encoding declared (or told by the first bytes), which the scan cannot read; nil
        /// when the declaration is too long to read.
        case encoding(String?)
    }

    private enum State {
        case text
        /// After `<`.
        case tagOpen
        /// After `<!`: a comment, a CDATA section or a declaration, told by the next character.
        case bang
        case tag
        case quoted(UInt32)
        /// Inside markup that ends with `terminator`, `matched` characters of it seen.
        case skipping(terminator: StaticString, matched: Int)
        /// Inside a declaration before the root element (the document type and those of its
        /// internal subset), whose quoted literals may hold `>`, `[` and the other quote.
        case declaration(quote: UInt32?)
    }

    /// How characters are cut from the bytes.
    private enum Units: Equatable {
        /// One byte each; after a lead byte in `leads`, the next byte is part of its character.
        case bytes(leads: LeadBytes)
        case utf16(bigEndian: Bool)
        case utf32(bigEndian: Bool)

        var size: Int {
            switch self {
            case .bytes: 1
            case .utf16: 2
            case .utf32: 4
            }
        }
    }

    private enum LeadBytes {
        case none
        case shiftJIS
        /// Big5, GBK and GB18030: every byte from 0x81 (GB18030's four-byte characters are two
        /// such pairs).
        case doubleByte

        func isLead(_ byte: UInt32) -> Bool {
            switch self {
            case .none: false
            case .shiftJIS: (0x81...0x9F).contains(byte) || (0xE0...0xFC).contains(byte)
            case .doubleByte: (0x81...0xFE).contains(byte)
            }
        }
    }

    private var state = State.text
    private var attributes = 0
    /// The line the scan is on, and the one the current tag began on.
    private var line = 1
    private var tagLine = 1
    /// Nil until the first four bytes have come (kept in `firstBytes` meanwhile).
    private var units: Units?
    private var firstBytes: [UInt8] = []
    /// The bytes of a code unit cut by the end of a piece.
    private var partialUnit: [UInt8] = []
    private var afterLeadByte = false
    /// Whether a start tag was seen: before it, `<!` begins the document type or a
    /// declaration in its internal subset (between `[` and `]`).
    private var rootSeen = false
    private var inInternalSubset = false
    /// The XML declaration as it is read (blanks left out), until its `?>`: nil once markup
    /// other than it began.
    private var declaration: [UInt8]? = []

    /// Scans the next piece; returns why the document is refused, at the first reason found.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Refusal? {
        guard let units else {
            firstBytes.append(contentsOf: bytes)
            guard firstBytes.count >= 4 else { return nil }
            switch Self.detect(firstBytes) {
            case .success(let detected): self.units = detected
            case .failure(let unreadable): return .encoding(unreadable.name)
            }
            let held = firstBytes
            firstBytes = []
            return held.withUnsafeBytes { scan($0) }
        }
        var index = bytes.startIndex
        // Complete a code unit the last piece cut.
        while !partialUnit.isEmpty && index < bytes.endIndex {
            partialUnit.append(bytes[index])
            index += 1
            if partialUnit.count == units.size {
                let unit = partialUnit.withUnsafeBytes { Self.unit(at: 0, of: $0, units) }
                partialUnit = []
                if let refusal = read(unit) { return refusal }
            }
        }
        while bytes.endIndex - index >= units.size {
            if let refusal = read(Self.unit(at: index, of: bytes, units)) { return refusal }
            index += units.size
        }
        partialUnit.append(contentsOf: bytes[index...])
        return nil
    }

    private struct UnreadableEncoding: Error {
        let name: String
    }

    /// libxml2's guess from the first four bytes (xmlDetectCharEncoding): EBCDIC and the two
    /// unusual UCS-4 byte orders are not read here.
    private static func detect(_ start: [UInt8]) -> Result<Units, UnreadableEncoding> {
        switch (start[0], start[1], start[2], start[3]) {
        case (0x00, 0x00, 0x00, 0x3C): return .success(.utf32(bigEndian: true))
        case (0x3C, 0x00, 0x00, 0x00): return .success(.utf32(bigEndian: false))
        case (0x00, 0x00, 0x3C, 0x00): return .failure(UnreadableEncoding(name: "UCS-4 (2143)"))
        case (0x00, 0x3C, 0x00, 0x00): return .failure(UnreadableEncoding(name: "UCS-4 (3412)"))
        case (0x4C, 0x6F, 0xA7, 0x94): return .failure(UnreadableEncoding(name: "EBCDIC"))
        case (0x3C, 0x00, 0x3F, 0x00), (0xFF, 0xFE, _, _): return .success(.utf16(bigEndian: false))
        case (0x00, 0x3C, 0x00, 0x3F), (0xFE, 0xFF, _, _): return .success(.utf16(bigEndian: true))
        default: return .success(.bytes(leads: .none))
        }
    }

    private static func unit(at index: Int, of bytes: UnsafeRawBufferPointer, _ units: Units) -> UInt32 {
        switch units {
        case .bytes: return UInt32(bytes[index])
        case .utf16(let bigEndian):
            let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            return UInt32(high) << 8 | UInt32(low)
        case .utf32(let bigEndian):
            var unit: UInt32 = 0
            for offset in 0..<4 { unit |= UInt32(bytes[index + (bigEndian ? 3 - offset : offset)]) << (8 * offset) }
            return unit
        }
    }

    private mutating func read(_ unit: UInt32) -> Refusal? {
        var character = unit
        if case .bytes(let leads)? = units {
            if afterLeadByte {
                afterLeadByte = false
                character = 0x80
            } else if leads.isLead(unit) {
                afterLeadByte = true
            }
        }
        if character == UInt32(UInt8(ascii: "\n")) { line += 1 }
        return step(character)
    }

    private mutating func step(_ character: UInt32) -> Refusal? {
        switch state {
        case .text:
            if character == ascii("<") {
                state = .tagOpen
                tagLine = line
            } else if inInternalSubset && character == ascii("]") {
                inInternalSubset = false
                state = .declaration(quote: nil)
            }
        case .tagOpen:
            switch character {
            case ascii("!"):
                state = .bang
                declaration = nil
            case ascii("?"): state = .skipping(terminator: "?>", matched: 0)
            default:
                state = .tag
                attributes = 0
                declaration = nil
                rootSeen = true
            }
        case .bang:
            switch character {
            case ascii("-"): state = .skipping(terminator: "-->", matched: 0)
            case ascii("["): state = .skipping(terminator: "]]>", matched: 0)
            case ascii(">"): state = .text
            default: state = rootSeen ? .skipping(terminator: ">", matched: 0) : .declaration(quote: nil)
            }
        case .declaration(let quote?):
            if character == quote { state = .declaration(quote: nil) }
        case .declaration(nil):
            switch character {
            case ascii("\""), ascii("'"): state = .declaration(quote: character)
            case ascii("["):
                inInternalSubset = true
                state = .text
            case ascii(">"): state = .text
            default: break
            }
        case .tag:
            switch character {
            case ascii(">"): state = .text
            case ascii("\""), ascii("'"): state = .quoted(character)
            case ascii("="):
                attributes += 1
                if attributes > Self.limit { return .tooManyAttributes(line: tagLine) }
            default: break
            }
        case .quoted(let quote):
            if character == quote { state = .tag }
        case .skipping(let terminator, let matched):
            let end = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
            if declaration != nil, let refusal = gatherDeclaration(character) { return refusal }
            if character == UInt32(end[matched]) {
                guard matched + 1 == end.count else {
                    state = .skipping(terminator: terminator, matched: matched + 1)
                    return nil
                }
                state = .text
                if declaration != nil { return endDeclaration() }
            } else if !(matched == 2 && character == UInt32(end[0]) && end[1] == end[0]) {
                // "--->" and "]]]>" still end at their last three characters.
                state = .skipping(terminator: terminator, matched: character == UInt32(end[0]) ? 1 : 0)
            }
        }
        return nil
    }

    private func ascii(_ character: Unicode.Scalar) -> UInt32 { character.value }

    /// Keeps a character of the first processing instruction, the XML declaration if it is one.
    private mutating func gatherDeclaration(_ character: UInt32) -> Refusal? {
        guard ![0x20, 0x09, 0x0A, 0x0D].contains(character) else { return nil }
        declaration!.append(character < 0x80 ? UInt8(character) : 0x80)
        return declaration!.count > Self.declarationLimit ? .encoding(nil) : nil
    }

    /// Judges the encoding the XML declaration names, and reads the rest as it says.
    private mutating func endDeclaration() -> Refusal? {
        defer { declaration = nil }
        guard let text = declaration, text.starts(with: Array("xml".utf8)) else { return nil }
        // Every `encoding=` is judged, not only the one libxml2 would take: none hides behind another.
        for name in Self.values(named: "encoding", in: text) {
            guard let units, let leads = Self.readable(name, in: units) else { return .encoding(name) }
            if case .bytes = units { self.units = .bytes(leads: leads) }
        }
        return nil
    }

    /// The quoted values after each `name=` (blanks are already left out).
    private static func values(named name: String, in text: [UInt8]) -> [String] {
        let key = Array((name + "=").utf8)
        var values: [String] = []
        var index = 0
        while index + key.count < text.count {
            guard text[index..<index + key.count].elementsEqual(key) else {
                index += 1
                continue
            }
            let quote = text[index + key.count]
            let start = index + key.count + 1
            let end =
                quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
                ? text[start...].firstIndex(of: quote) ?? text.count : start
            values.append(String(decoding: text[start..<end], as: UTF8.self))
            index = end
        }
        return values
    }

    /// Single-byte code pages of real feeds whose first 128 characters are ASCII (Mac OS Roman,
    /// Thai, the DOS pages), by their names without separators. Not the EBCDIC ones (IBM037,
    /// CP1047), whose markup is not ASCII: no rule by prefix.
    private static let asciiCodePages: Set<String> = [
        "MAC", "MACINTOSH", "MACROMAN", "XMACROMAN", "CSMACINTOSH", "TIS620", "WINDOWS874", "CP874",
        "IBM437", "CP437", "IBM850", "CP850", "IBM852", "CP852", "IBM866", "CP866",
    ]

    /// How the bytes after a declaration of `name` are cut into characters, nil when they cannot
    /// be read here. libxml2 keeps reading UTF-16 and UTF-32 as detected when the name is UTF-8
    /// or UTF-16 (or the very handler it has), and switches to any other it finds (by iconv).
    private static func readable(_ name: String, in units: Units) -> LeadBytes? {
        let exact = name.uppercased()
        if ["UTF-8", "UTF8", "UTF-16", "UTF16"].contains(exact) { return LeadBytes.none }
        switch units {
        case .utf16(let bigEndian): return exact == (bigEndian ? "UTF-16BE" : "UTF-16LE") ? LeadBytes.none : nil
        case .utf32: return nil
        case .bytes: break
        }
        let key = String(exact.unicodeScalars.filter { !"-_ .:".unicodeScalars.contains($0) })
        func numbered(_ prefix: String) -> Bool {
            key.hasPrefix(prefix) && key.count > prefix.count && key.dropFirst(prefix.count).allSatisfy(\.isNumber)
        }
        if ["ASCII", "USASCII"].contains(key) || numbered("ISO8859") || numbered("ISOLATIN") || numbered("LATIN")
            || key.hasPrefix("KOI8") || key.hasPrefix("EUC")
            || ((0...8).contains { key == "WINDOWS125\($0)" || key == "CP125\($0)" })
            || Self.asciiCodePages.contains(key)
        {
            return LeadBytes.none
        }
        if ["SHIFTJIS", "SJIS", "CP932", "MS932", "WINDOWS31J"].contains(key) { return .shiftJIS }
        if ["GBK", "GB18030", "BIG5", "BIG5HKSCS", "GB2312", "CP936", "CP949", "UHC", "CP950"].contains(key) {
            return .doubleByte
        }
        return nil
    }
}
