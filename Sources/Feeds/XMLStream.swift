import CXML
import CXMLShim
import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// An XML namespace podcli reads, told apart by URI (or, when a feed uses a prefix it never
/// declared, by the conventional prefix).
enum Namespace: Equatable {
    case none, atom, itunes, podcast, content, dc, media, psc, other

    init(uri: String) {
        switch uri {
        case "http://www.w3.org/2005/Atom": self = .atom
        case "http://www.itunes.com/dtds/podcast-1.0.dtd", "http://www.itunes.com/DTDs/Podcast-1.0.dtd": self = .itunes
        case "https://podcastindex.org/namespace/1.0",
            "https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md":
            self = .podcast
        case "http://purl.org/rss/1.0/modules/content/": self = .content
        case "http://purl.org/dc/elements/1.1/": self = .dc
        case "http://search.yahoo.com/mrss/", "http://search.yahoo.com/mrss": self = .media
        case "http://podlove.org/simple-chapters", "http://podlove.org/simple-chapters/": self = .psc
        default: self = .other
        }
    }

    /// Feeds such as De Grote Podcast use `itunes:` without declaring it; libxml2 then reports the
    /// prefix with no URI.
    init(undeclaredPrefix prefix: String) {
        switch prefix {
        case "itunes": self = .itunes
        case "podcast": self = .podcast
        case "content": self = .content
        case "dc": self = .dc
        case "media": self = .media
        case "psc": self = .psc
        case "atom": self = .atom
        default: self = .other
        }
    }
}

/// An element's name as libxml2 reports it: the local name's bytes (interned in libxml2's
/// dictionary for the whole parse, so the pointer identifies the name) and its namespace.
struct XMLName {
    let pointer: UnsafePointer<xmlChar>
    let namespace: Namespace

    var local: String { String(cString: pointer) }
}

/// What `XMLStream` hands its delegate. Names and attribute values are only valid during the
/// call. Text is not handed over piece by piece: while `gathersText` is on, the stream collects it
/// (see `gatheredText`).
protocol XMLStreamDelegate: AnyObject {
    func startElement(_ name: XMLName, attributes: XMLAttributes)
    func endElement()
}

/// The attributes of one start tag, read on demand (most elements' attributes are never looked at).
struct XMLAttributes {
    fileprivate let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    fileprivate let count: Int

    /// The value of the attribute with this local name (in any namespace, for the feeds that
    /// prefix their attributes), its surrounding whitespace trimmed.
    subscript(_ localName: StaticString) -> String? {
        guard let base else { return nil }
        for index in 0..<count {
            // libxml2 gives five pointers per attribute: localname, prefix, URI, value, value end.
            let entry = base + index * 5
            guard let name = entry[0], let start = entry[3], let end = entry[4],
                strcmp(
                    UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
                    UnsafeRawPointer(localName.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
            else { continue }
            return Self.decode(trimming(UnsafeBufferPointer(start: start, count: end - start)))
        }
        return nil
    }

    /// Without entity substitution, libxml2 hands an `&amp;` in an attribute over as "&#38;";
    /// other references are already decoded.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + 4 < bytes.count, bytes[index + 1] == UInt8(ascii: "#"),
                bytes[index + 2] == UInt8(ascii: "3"), bytes[index + 3] == UInt8(ascii: "8"),
                bytes[index + 4] == UInt8(ascii: ";")
            {
                decoded.append(UInt8(ascii: "&"))
                index += 5
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}

/// `bytes` without leading and trailing ASCII whitespace.
func trimming(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    while start < end, isASCIISpace(bytes[start]) { start += 1 }
    while end > start, isASCIISpace(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
}

@inline(__always) func isASCIISpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
}

/// Why a document could not be read as XML at all.
struct XMLStreamFailure: Error {
    let line: Int
    let message: String
    /// libxml2's error number (`xmlParserErrors`).
    let code: Int

    /// libxml2 stopped at a single text (or CDATA section) over its 10 MB limit: "xmlSAX2Characters:
    /// huge text node", "Huge input lookup" (it has no error number of its own for these).
    var isHugeText: Bool { message.contains("huge text node") || message.contains("Huge input lookup") }

    /// libxml2 gave up at a character XML does not allow (a control character such as U+0001)
    /// where it cannot skip it: in an attribute ("invalid character in attribute value": the tag
    /// is lost) or a CDATA section ("Input is not proper UTF-8 ... Bytes: 0x01", though the byte
    /// is UTF-8). In text it skips the character ("PCDATA invalid Char value 1") and reads on.
    /// Bytes that do not decode share the error number; they are not this.
    var isIllegalCharacter: Bool {
        guard code == Int(XML_ERR_INVALID_CHAR.rawValue) else { return false }
        if message.hasPrefix("invalid character in attribute value") { return true }
        guard let bytes = message.firstRange(of: "Bytes: 0x") else { return false }
        return UInt8(message[bytes.upperBound...].prefix(2), radix: 16).map { $0 < 0x20 } ?? false
    }

    /// Why a document whose root element never closed stopped: a text over libxml2's limit, a
    /// character XML does not allow, or its end.
    static func unfinished(_ errors: [XMLStreamFailure]) -> FeedError {
        if let huge = errors.first(where: \.isHugeText) { return .textTooLong(line: huge.line) }
        if let illegal = errors.first(where: \.isIllegalCharacter) { return .illegalCharacter(line: illegal.line) }
        return .truncated(line: errors.last?.line ?? 0)
    }
}

/// One owner of a libxml2 push-parser context, fed in chunks (never one big buffer: libxml2
/// refuses single inputs over 10 MB without XML_PARSE_HUGE, which would also lift its safety
/// limits).
///
/// Safety: no SAX handler for entity declarations or lookups is installed, so internal entities
/// are never expanded (no "billion laughs"), external entities and DTDs are never loaded, and
/// the network is off. Recover mode keeps reading past the mistakes real feeds make (undeclared
/// prefixes, stray `&nbsp;`); `errors` lists them.
///
/// Two limits keep a hostile document from holding the parse (and `sync`'s lock) for minutes:
/// a start tag of more than `StartTagScanner.limit` attributes (or an encoding the count cannot
/// read) is refused before libxml2 reads it, and the CPU time spent in libxml2 is capped by
/// `budget` (the time spent waiting for the bytes, as a feed arrives, or descheduled, does not
/// count).
final class XMLStream {
    private let context: xmlParserCtxtPtr
    private var handler = xmlSAXHandler()
    private let sink: Sink
    private var sawFirstByte = false
    private var scanner = StartTagScanner()
    private let budget: Duration
    private var spent = Duration.zero
    /// Why the document is no longer read: set by the first limit it passes.
    private var refusal: FeedError?

    /// libxml2's generic errors during this parse (see `failedToDecode`).
    private let genericErrors = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    /// The delegate and the state libxml2's callbacks reach through their user-data pointer.
    fileprivate final class Sink {
        // unowned(unsafe): the delegate owns the stream, so it outlives every callback; a checked
        // reference would cost a retain and release per callback, and text comes in many pieces.
        unowned(unsafe) let delegate: any XMLStreamDelegate
        /// Set while the delegate gathers text. Otherwise libxml2 has no text callback at all, so
        /// the text between and inside unwanted elements costs no call.
        var gathersText = false
        /// The text gathered, as UTF-8. Behind a pointer: libxml2 hands text over in many small
        /// pieces (every entity splits it), and appending through a pointer costs no exclusivity
        /// check or reference count per piece.
        let gathered: UnsafeMutablePointer<[UInt8]>
        var errors: [XMLStreamFailure] = []
        var depth = 0
        var rootSeen = false
        var rootClosed = false
        var namespaceCache: [(UnsafePointer<xmlChar>, Namespace)] = []
        var prefixCache: [(UnsafePointer<xmlChar>, Namespace)] = []

        init(delegate: any XMLStreamDelegate) {
            self.delegate = delegate
            gathered = .allocate(capacity: 1)
            gathered.initialize(to: [])
            gathered.pointee.reserveCapacity(64 * 1024)
        }

        deinit {
            gathered.deinitialize(count: 1)
            gathered.deallocate()
        }

        func namespace(uri: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> Namespace {
            // libxml2 interns names, prefixes and namespace URIs in its dictionary, so a pointer
            // identifies one for the whole parse.
            guard let uri else {
                guard let prefix else { return .none }
                for (pointer, namespace) in prefixCache where pointer == prefix { return namespace }
                let namespace = Namespace(undeclaredPrefix: String(cString: prefix))
                prefixCache.append((prefix, namespace))
                return namespace
            }
            for (pointer, namespace) in namespaceCache where pointer == uri { return namespace }
            let namespace = Namespace(uri: String(cString: uri))
            namespaceCache.append((uri, namespace))
            return namespace
        }
    }

    init(delegate: any XMLStreamDelegate, budget: Duration = FeedParser.defaultBudget) {
        self.budget = budget
        sink = Sink(delegate: delegate)
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, localName, prefix, uri, _, _, attributeCount, _, attributes in
            Unmanaged<Sink>.fromOpaque(context!)._withUnsafeGuaranteedRef { sink in
                if sink.depth == 0 { sink.rootSeen = true }
                sink.depth += 1
                sink.delegate.startElement(
                    XMLName(pointer: localName!, namespace: sink.namespace(uri: uri, prefix: prefix)),
                    attributes: XMLAttributes(base: attributes, count: Int(attributeCount)))
            }
        }
        handler.endElementNs = { context, _, _, _ in
            Unmanaged<Sink>.fromOpaque(context!)._withUnsafeGuaranteedRef { sink in
                sink.depth -= 1
                if sink.depth == 0 { sink.rootClosed = true }
                sink.delegate.endElement()
            }
        }
        // Installed only while gathering (see `gathersText`).
        handler.characters = nil
        handler.cdataBlock = nil
        handler.serror = { context, error in
            guard let context, let error else { return }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            let failure = XMLStreamFailure(
                line: Int(error.pointee.line),
                message: (error.pointee.message.map { String(cString: $0) } ?? "XML error")
                    .trimmingWhitespaceAndNewlines(),
                code: Int(error.pointee.code))
            // A hostile document can make an error per element: keep the first ones and the last.
            if sink.errors.count < XMLStream.keptErrors {
                sink.errors.append(failure)
            } else {
                sink.errors[sink.errors.count - 1] = failure
            }
        }
        genericErrors.initialize(to: 0)
        let userData = Unmanaged.passUnretained(sink).toOpaque()
        context = xmlCreatePushParserCtxt(&handler, userData, nil, 0, nil)
        let options = XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue
        xmlCtxtUseOptions(context, Int32(options))
    }

    deinit {
        xmlFreeParserCtxt(context)
        genericErrors.deallocate()
    }

    /// Runs a call into libxml2 with its generic errors counted for this stream. The handler is
    /// per thread and outlives the call, so it is set around each call and cleared after.
    private func countingGenericErrors(_ body: () -> Void) {
        cxml_count_generic_errors(genericErrors)
        defer { cxml_count_generic_errors(nil) }
        body()
    }

    /// Feeds the next piece of the document; once a limit is passed, the rest is not read.
    func feed(_ chunk: UnsafeRawBufferPointer) {
        guard refusal == nil else { return }
        var bytes = chunk
        if !sawFirstByte {
            // Feeds that start with a blank line before `<?xml` are common; libxml2 refuses them.
            bytes = Self.droppingLeadingWhitespace(bytes)
            guard !bytes.isEmpty else { return }
            sawFirstByte = true
        }
        switch scanner.scan(bytes) {
        case .tooManyAttributes(let line):
            refusal = .tooManyAttributes(line: line, limit: StartTagScanner.limit)
            return
        case .encoding(let name):
            refusal = .unreadableEncoding(name)
            return
        case nil: break
        }
        bytes.withMemoryRebound(to: CChar.self) { characters in
            parse { _ = xmlParseChunk(context, characters.baseAddress, Int32(characters.count), 0) }
        }
    }

    /// Runs a call into libxml2, counting its generic errors and its time against the budget.
    private func parse(_ body: () -> Void) {
        // The thread's CPU time: waiting descheduled, or a laptop's sleep, is not libxml2's work.
        let started = ThreadCPUTime.now()
        countingGenericErrors(body)
        spent += ThreadCPUTime.now() - started
        if spent > budget { refusal = .tooSlow(seconds: Int(budget.components.seconds)) }
    }

    /// Whether text is gathered; off by default. Turning it on starts from nothing.
    var gathersText: Bool {
        get { sink.gathersText }
        set {
            guard newValue != sink.gathersText else { return }
            if newValue { sink.gathered.pointee.removeAll(keepingCapacity: true) }
            sink.gathersText = newValue
            // libxml2 copied the handler into the context; that copy is the one it calls.
            context.pointee.sax.pointee.characters = newValue ? Self.gatherText : nil
            context.pointee.sax.pointee.cdataBlock = newValue ? Self.gatherText : nil
        }
    }

    private static let gatherText: charactersSAXFunc = { context, bytes, length in
        Unmanaged<Sink>.fromOpaque(context!)._withUnsafeGuaranteedRef { sink in
            sink.gathered.pointee.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
    }

    /// The text gathered since `gathersText` was turned on.
    func withGatheredText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        sink.gathered.pointee.withUnsafeBufferPointer(body)
    }

    /// True until a byte other than leading whitespace (or a byte-order mark) arrives.
    var isEmpty: Bool { !sawFirstByte }

    /// Ends the document and reports what kind of reading it was.
    /// - Throws: `FeedError.tooManyAttributes` or `.tooSlow` when a limit stopped the reading.
    func finish() throws(FeedError) -> (rootSeen: Bool, rootClosed: Bool, errors: [XMLStreamFailure]) {
        if refusal == nil { parse { _ = xmlParseChunk(context, nil, 0, 1) } }
        if let refusal { throw refusal }
        return (sink.rootSeen, sink.rootClosed, sink.errors)
    }

    /// Whether libxml2 stopped because the bytes do not decode in the document's encoding. A
    /// conversion failure halts the push parser through its generic error channel, with no
    /// structured error, so a generic error counts too.
    var failedToDecode: Bool {
        if genericErrors.pointee > 0 { return true }
        guard let last = sink.errors.last else { return false }
        return Self.decodingErrors.contains(last.code)
    }

    /// How many of the errors libxml2 recovered from are kept (the first ones, and the last).
    static let keptErrors = 100

    /// libxml2's error numbers for bytes that do not decode.
    private static let decodingErrors: Set<Int> = [
        Int(XML_ERR_UNKNOWN_ENCODING.rawValue), Int(XML_ERR_UNSUPPORTED_ENCODING.rawValue),
        Int(XML_ERR_INVALID_ENCODING.rawValue), Int(XML_ERR_INVALID_CHAR.rawValue), Int(XML_IO_ENCODER.rawValue),
        Int(XML_I18N_NO_HANDLER.rawValue), Int(XML_I18N_CONV_FAILED.rawValue),
    ]

    /// Reads the file at `path` in 256 KiB chunks, handing each to `body`.
    static func readChunks(of path: String, _ body: (UnsafeRawBufferPointer) -> Void) throws(FeedError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(descriptor) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count = read(descriptor, chunk.baseAddress, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, errno: errno)
            }
            if count == 0 { return }
            body(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
    }

    /// Skips ASCII whitespace at the start, after a UTF-8 byte-order mark if there is one.
    private static func droppingLeadingWhitespace(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        let hasUTF8BOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        if hasUTF8BOM { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start...])
    }
}
