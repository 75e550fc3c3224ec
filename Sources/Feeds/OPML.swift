import Strings

/// One subscription in an OPML file.
public struct OPMLOutline: Sendable, Equatable {
    public var url: String
    public var title: String?

    public init(url: String, title: String?) {
        self.url = url
        self.title = title
    }
}

/// OPML 2.0 subscription lists, the format podcast apps exchange.
public enum OPML {
    /// Every outline with an `xmlUrl`, at any depth (folders are flattened), in document order,
    /// without repeats.
    public static func outlines(contentsOf path: String) throws(FeedError) -> [OPMLOutline] {
        let reader = OutlineReader()
        try reader.parse(path)
        return reader.outlines
    }

    /// An OPML 2.0 document listing `outlines`.
    public static func document(title: String, outlines: [OPMLOutline]) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<opml version="2.0">"#,
            "  <head>",
            "    <title>\(escape(title))</title>",
            "  </head>",
            "  <body>",
        ]
        for outline in outlines {
            let text = escape(outline.title ?? outline.url)
            lines.append(
                #"    <outline type="rss" text="\#(text)" title="\#(text)" xmlUrl="\#(escape(outline.url))"/>"#)
        }
        lines += ["  </body>", "</opml>", ""]
        return lines.joined(separator: "\n")
    }

    /// Text made safe for an XML attribute or element. Control characters (`PrintableText`) are
    /// written as character references, so the document has none as itself; the C0 controls
    /// XML 1.0 cannot carry at all (all but tab, LF and CR) become spaces.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result += "&#\(scalar.value);"
            case _ where scalar.value < 0x20: result += " "
            case _ where PrintableText.isControl(scalar):
                result += "&#x\(String(scalar.value, radix: 16, uppercase: true));"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

private final class OutlineReader: XMLStreamDelegate {
    private(set) var outlines: [OPMLOutline] = []
    private var seen = Set<String>()
    private var rootName: String?

    func parse(_ path: String) throws(FeedError) {
        let stream = XMLStream(delegate: self)
        try XMLStream.readChunks(of: path, stream.feed)
        let (rootSeen, rootClosed, errors) = try stream.finish()
        guard !stream.isEmpty else { throw .empty }
        guard rootSeen, let rootName else {
            throw .notXML(line: errors.first?.line ?? 1, message: errors.first?.message ?? "no root element")
        }
        guard rootName == "opml" else { throw .notAFeed(root: rootName) }
        guard rootClosed else { throw XMLStreamFailure.unfinished(errors) }
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) {
        let local = name.local
        if rootName == nil { rootName = local }
        guard local == "outline",
            let url = (attributes["xmlUrl"] ?? attributes["xmlurl"] ?? attributes["url"]).map(
                URLRepair.encodingIllegalCharacters),
            !url.isEmpty, seen.insert(url).inserted
        else { return }
        let title = (attributes["title"] ?? attributes["text"]).map(collapsingWhitespace).flatMap(nonEmpty)
        outlines.append(OPMLOutline(url: url, title: title))
    }

    func endElement() {}
}
