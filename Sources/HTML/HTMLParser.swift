import CXML
import CXMLShim

#if canImport(Glibc)
    import Glibc
#endif

/// One libxml2 HTML parser context, reading one prepared document (`HTMLSource`) from memory into
/// `HTMLEvent`s through SAX callbacks. The only file that calls libxml2's HTML parser.
enum HTMLParser {
    /// Never fetches anything (`NONET`), prints nothing (`NOERROR`, `NOWARNING`) and reads on
    /// through any error (`RECOVER`).
    private static let options = Int32(
        HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_RECOVER.rawValue)

    /// Elements open at once past which reading stops (libxml2's own limit for XML): 50,000 open
    /// and as many stray end tags took 7 s.
    static let maximumDepth = 256

    /// The events of `prepared` (UTF-8, no NUL), or nil when libxml2 could not make a parser
    /// (out of memory) or the text is over its 2 GiB limit.
    static func events(_ prepared: [UInt8]) -> [HTMLEvent]? {
        guard prepared.count < Int32.max, let context = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(context) }
        let sink = Sink()
        // libxml2 calls back with the context itself as user data; the sink rides in `_private`.
        context.pointee.sax.pointee = makeHandler()
        context.pointee._private = Unmanaged.passUnretained(sink).toOpaque()
        // Errors outside the parser's own (which NOERROR silences) would go to stderr.
        cxml_count_generic_errors(nil)
        let document = withExtendedLifetime(sink) {
            prepared.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    // The encoding given, a `<meta charset>` in the document cannot change it.
                    htmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), nil, "UTF-8", options)
                }
            }
        }
        // The handler builds no tree, so there is none to free unless libxml2 made one anyway.
        if let document { xmlFreeDoc(document) }
        guard context.pointee.errNo != Int32(XML_ERR_NO_MEMORY.rawValue) else { return nil }
        sink.flushText()
        return sink.events
    }

    private final class Sink {
        var events: [HTMLEvent] = []
        var text: [UInt8] = []
        /// For each open element, whether it is `html`, `head` or `body`, which are not reported.
        var frames: [Bool] = []

        func flushText() {
            guard !text.isEmpty else { return }
            events.append(.text(text.withUnsafeBufferPointer(HTMLDocument.decodingReferences)))
            text.removeAll(keepingCapacity: true)
        }
    }

    private static func sink(_ context: UnsafeMutableRawPointer?) -> Sink {
        let parser = context!.assumingMemoryBound(to: htmlParserCtxt.self)
        return Unmanaged<Sink>.fromOpaque(parser.pointee._private).takeUnretainedValue()
    }

    private static func makeHandler() -> htmlSAXHandler {
        var handler = htmlSAXHandler()
        handler.startElement = { context, name, attributes in
            // libxml2 looks for an end tag's element down its whole stack of open ones, so a
            // document of deep nesting and stray end tags takes time growing with its square.
            let parser = context!.assumingMemoryBound(to: htmlParserCtxt.self)
            guard parser.pointee.nameNr <= Self.maximumDepth else {
                xmlStopParser(parser)
                return
            }
            let sink = HTMLParser.sink(context)
            // `html`, `head` and `body` say nothing podcli reads, and libxml2 implies them anyway.
            let isFrame = Self.isFrame(name)
            sink.frames.append(isFrame)
            guard !isFrame, let name else { return }
            sink.flushText()
            sink.events.append(.start(name: String(cString: name), attributes: Self.attributes(attributes)))
        }
        handler.endElement = { context, name in
            let sink = HTMLParser.sink(context)
            guard sink.frames.popLast() == false, let name else { return }
            sink.flushText()
            sink.events.append(.end(name: String(cString: name)))
        }
        let text: charactersSAXFunc = { context, characters, length in
            guard let characters else { return }
            HTMLParser.sink(context).text.append(contentsOf: UnsafeBufferPointer(start: characters, count: Int(length)))
        }
        handler.characters = text
        handler.ignorableWhitespace = text
        // The contents of `<script>` and `<style>`: not text. Without this libxml2 would call `characters`.
        handler.cdataBlock = { _, _, _ in }
        return handler
    }

    private static func isFrame(_ name: UnsafePointer<xmlChar>?) -> Bool {
        guard let name else { return true }
        return xmlStrEqual(name, "html") != 0 || xmlStrEqual(name, "head") != 0 || xmlStrEqual(name, "body") != 0
    }

    /// libxml2's NULL-terminated list of name, value pairs; a value is NULL for `<input disabled>`.
    private static func attributes(_ list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) -> [HTMLAttribute] {
        guard var entry = list else { return [] }
        var attributes: [HTMLAttribute] = []
        while let name = entry[0] {
            let value = entry[1].map { value in
                let length = strlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
                return trimmed(HTMLDocument.decodingReferences(UnsafeBufferPointer(start: value, count: length)))
            }
            attributes.append(HTMLAttribute(name: String(cString: name), value: value))
            entry += 2
        }
        return attributes
    }

    /// `value` without the ASCII whitespace around it (a reference decoded to a space included).
    private static func trimmed(_ value: String) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        let bytes = value.utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(value[first...last])
    }
}
