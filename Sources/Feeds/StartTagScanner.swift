/// Counts the attributes of each start tag in the bytes of a document as they are fed, before
/// libxml2 reads them: libxml2 checks every attribute of an element against every other for
/// duplicates, so 200,000 on one element took 36 s (500,000, 262 s). A tag with more than
/// `limit` is refused before libxml2 has its `>`, and the push parser, which waits for a whole
/// tag, never parses it.
///
/// An attribute is an `=` outside quotes inside a start tag. Comments, CDATA sections,
/// processing instructions and declarations are skipped to their ends, so an `=` in them (or a
/// `<` in a CDATA section's HTML) is not counted.
struct StartTagScanner {
    /// More attributes than any feed has (a few on an enclosure, a dozen namespaces on the root).
    static let limit = 1_000

    private enum State {
        case text
        /// After `<`.
        case tagOpen
        /// After `<!`: a comment, a CDATA section or a declaration, told by the next byte.
        case bang
        case tag
        case quoted(UInt8)
        /// Inside markup that ends with `terminator`, `matched` bytes of it seen.
        case skipping(terminator: StaticString, matched: Int)
    }

    private var state = State.text
    private var attributes = 0
    /// The line the scan is on, and the one the current tag began on.
    private var line = 1
    private var tagLine = 1

    /// Scans the next piece; returns the line of a start tag with more than `limit` attributes.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int? {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") { line += 1 }
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") {
                    state = .tagOpen
                    tagLine = line
                }
            case .tagOpen:
                switch byte {
                case UInt8(ascii: "!"): state = .bang
                case UInt8(ascii: "?"): state = .skipping(terminator: "?>", matched: 0)
                default:
                    state = .tag
                    attributes = 0
                }
            case .bang:
                switch byte {
                case UInt8(ascii: "-"): state = .skipping(terminator: "-->", matched: 0)
                case UInt8(ascii: "["): state = .skipping(terminator: "]]>", matched: 0)
                case UInt8(ascii: ">"): state = .text
                default: state = .skipping(terminator: ">", matched: 0)
                }
            case .tag:
                switch byte {
                case UInt8(ascii: ">"): state = .text
                case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .quoted(byte)
                case UInt8(ascii: "="):
                    attributes += 1
                    if attributes > Self.limit { return tagLine }
                default: break
                }
            case .quoted(let quote):
                if byte == quote { state = .tag }
            case .skipping(let terminator, let matched):
                let end = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
                if byte == end[matched] {
                    state = matched + 1 == end.count ? .text : .skipping(terminator: terminator, matched: matched + 1)
                } else if !(matched == 2 && byte == end[0] && end[1] == end[0]) {
                    // "--->" and "]]]>" still end at their last three bytes.
                    state = .skipping(terminator: terminator, matched: byte == end[0] ? 1 : 0)
                }
            }
        }
        return nil
    }
}
