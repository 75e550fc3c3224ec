import Foundation

/// Why a body could not be read as a feed; each message says what was wrong with it.
public enum FeedError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case notXML(line: Int, message: String)
    /// XML, but neither RSS nor Atom (an HTML page, an OPML file, ...).
    case notAFeed(root: String)
    case truncated(line: Int)
    case unreadable(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .empty: return "the feed is empty"
        case .notXML(let line, let message): return "not a feed: not XML (line \(line): \(message))"
        case .notAFeed(let root) where root.lowercased() == "html": return "not a feed: an HTML page"
        case .notAFeed(let root): return "not a feed: the document is <\(root)>, not RSS or Atom"
        case .truncated(let line): return "the feed ends early (cut off at line \(line))"
        case .unreadable(let path, let code): return "could not read \(path): \(String(cString: strerror(code)))"
        }
    }
}

/// Reads RSS 2.0 and Atom feeds into a `FeedDocument`, streaming the XML through libxml2.
///
/// Lenient where real feeds are sloppy (undeclared `itunes:` prefix, blank line before `<?xml`,
/// odd durations and dates, relative URLs), strict where sloppiness would lose data: a body that
/// is empty, not XML, not a feed or cut off is an error, so nothing stored is changed by it.
public struct FeedParser: Sendable {
    /// Relative URLs in the feed are resolved against this (the feed's own URL).
    public let baseURL: URL?

    public init(baseURL: String) { self.baseURL = URL(string: baseURL) }

    /// Parses the feed in the file at `path`, reading it in chunks.
    public func parse(contentsOf path: String) throws(FeedError) -> FeedDocument {
        let reader = DocumentReader(parser: self)
        try XMLStream.readChunks(of: path, reader.feed)
        return try reader.finish()
    }

    /// Parses a feed held in memory (fed to libxml2 in chunks, like a file).
    public func parse(_ bytes: some Collection<UInt8>) throws(FeedError) -> FeedDocument {
        let reader = DocumentReader(parser: self)
        Array(bytes).withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + 256 * 1024)
                reader.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
        return try reader.finish()
    }

    /// An absolute URL for `text` as found in the feed: trimmed, resolved against the feed's URL.
    func resolve(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        if Self.isAbsoluteHTTP(trimmed) { return trimmed }
        return URL(string: trimmed, relativeTo: baseURL)?.absoluteString ?? trimmed
    }

    private static func isAbsoluteHTTP(_ text: String) -> Bool {
        let head = text.utf8.prefix(8).map { $0 | 0x20 }  // ASCII lowercase
        return head.starts(with: "http://".utf8) || head.starts(with: "https://".utf8)
    }
}

/// The state of one parse: which element we are in and what text is being gathered.
private final class DocumentReader: XMLStreamDelegate {
    /// The elements whose position matters for what their children mean.
    private enum Node {
        case rssRoot, channel, atomFeed, item, entry, rssImage, atomAuthor, mediaGroup, pscChapters, skipped, other
    }

    /// Where gathered text goes when its element ends.
    private enum Field {
        case feedTitle, feedLink, feedDescription, feedSummary, feedAuthor, feedLanguage, feedNewURL, feedType
        case feedExplicit, feedGUID, feedImageURL, feedAtomAuthor, feedAtomIcon
        case title, itunesTitle, link, guid, pubDate, dcDate, atomPublished, atomUpdated
        case description, contentEncoded, summary, atomContent, duration, episode, season, episodeType, explicit
        case person
    }

    private let parser: FeedParser
    private var stream: XMLStream!
    private var stack: [Node] = []
    private var rootName: String?
    private var document = FeedDocument()
    private var item: ItemDraft?
    private var capture: (field: Field, depth: Int)?
    private var text: [UInt8] = []
    private var pendingPerson: Person?

    init(parser: FeedParser) {
        self.parser = parser
        text.reserveCapacity(64 * 1024)
        stream = XMLStream(delegate: self)
    }

    func feed(_ bytes: UnsafeRawBufferPointer) { stream.feed(bytes) }

    func finish() throws(FeedError) -> FeedDocument {
        let (rootSeen, rootClosed, errors) = stream.finish()
        guard !stream.isEmpty else { throw .empty }
        guard rootSeen, let rootName else {
            let first = errors.first
            throw .notXML(line: first?.line ?? 1, message: first?.message ?? "no root element")
        }
        guard rootNode == .rssRoot || rootNode == .atomFeed else { throw .notAFeed(root: rootName) }
        guard rootClosed else { throw .truncated(line: errors.last?.line ?? 0) }
        document.title = collapsingWhitespace(document.title)
        document.warnings = errors.map { "line \($0.line): \($0.message)" }
        return document
    }

    private var rootNode: Node?

    // MARK: XMLStreamDelegate

    func startElement(_ name: String, namespace: Namespace, attributes: XMLAttributes) {
        let parent = stack.last
        if parent == nil {
            rootName = name
            rootNode = rootNode(name, namespace)
            stack.append(rootNode!)
            return
        }
        if parent == .skipped || capture != nil {
            // Inside an element we ignore, or markup inside gathered text (Atom xhtml content).
            stack.append(parent == .skipped ? .skipped : .other)
            return
        }
        let node: Node
        switch parent! {
        case .rssRoot:
            node = name == "channel" && namespace == .none ? .channel : .skipped
        case .channel, .atomFeed:
            node = startFeedChild(name, namespace, attributes)
        case .item, .entry, .mediaGroup:
            node = startItemChild(name, namespace, attributes)
        case .rssImage:
            if name == "url", namespace == .none { begin(.feedImageURL) }
            node = .other
        case .atomAuthor:
            if name == "name" { begin(.feedAtomAuthor) }
            node = .other
        case .pscChapters:
            if name == "chapter", namespace == .psc { addChapter(attributes) }
            node = .other
        case .skipped, .other:
            node = .skipped
        }
        stack.append(node)
    }

    func endElement() {
        if let capture, capture.depth == stack.count {
            commit(capture.field, String(decoding: text, as: UTF8.self))
            self.capture = nil
        }
        let node = stack.removeLast()
        if node == .item || node == .entry, let draft = item {
            if let episode = draft.build(parser) {
                document.items.append(episode)
            } else {
                document.itemsWithoutEnclosure += 1
            }
            item = nil
        }
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        if capture != nil { text.append(contentsOf: bytes) }
    }

    // MARK: Elements

    private func rootNode(_ name: String, _ namespace: Namespace) -> Node {
        switch (name, namespace) {
        case ("rss", .none): return .rssRoot
        case ("feed", .atom): return .atomFeed
        default: return .skipped
        }
    }

    private func startFeedChild(_ name: String, _ namespace: Namespace, _ attributes: XMLAttributes) -> Node {
        switch (namespace, name) {
        case (.none, "item"), (.atom, "entry"):
            item = ItemDraft()
            return namespace == .atom ? .entry : .item
        case (.none, "title"), (.atom, "title"): begin(.feedTitle)
        case (.none, "link"): begin(.feedLink)
        case (.atom, "link"):
            let rel = attributes["rel"] ?? "alternate"
            if rel == "alternate", document.link == nil { document.link = parser.resolve(attributes["href"]) }
        case (.none, "description"), (.atom, "subtitle"): begin(.feedDescription)
        case (.itunes, "summary"): begin(.feedSummary)
        case (.itunes, "author"): begin(.feedAuthor)
        case (.none, "language"): begin(.feedLanguage)
        case (.itunes, "new-feed-url"): begin(.feedNewURL)
        case (.itunes, "type"): begin(.feedType)
        case (.itunes, "explicit"): begin(.feedExplicit)
        case (.podcast, "guid"): begin(.feedGUID)
        case (.itunes, "image"):
            if let href = parser.resolve(attributes["href"]) { document.imageURL = href }
        case (.none, "image"): return .rssImage
        case (.atom, "author"): return .atomAuthor
        case (.atom, "logo"), (.atom, "icon"): begin(.feedAtomIcon)
        default: return .skipped
        }
        return .other
    }

    private func startItemChild(_ name: String, _ namespace: Namespace, _ attributes: XMLAttributes) -> Node {
        switch (namespace, name) {
        case (.none, "title"), (.atom, "title"): begin(.title)
        case (.itunes, "title"): begin(.itunesTitle)
        case (.none, "link"): begin(.link)
        case (.atom, "link"):
            let rel = attributes["rel"] ?? "alternate"
            if rel == "enclosure" {
                item?.enclosures.append(enclosure(attributes, urlAttribute: "href"))
            } else if rel == "alternate", item?.link == nil {
                item?.link = parser.resolve(attributes["href"])
            }
        case (.none, "guid"), (.atom, "id"): begin(.guid)
        case (.none, "pubDate"): begin(.pubDate)
        case (.dc, "date"): begin(.dcDate)
        case (.atom, "published"): begin(.atomPublished)
        case (.atom, "updated"): begin(.atomUpdated)
        case (.none, "description"): begin(.description)
        case (.content, "encoded"): begin(.contentEncoded)
        case (.itunes, "summary"), (.atom, "summary"): begin(.summary)
        case (.atom, "content"): begin(.atomContent)
        case (.itunes, "duration"): begin(.duration)
        case (.itunes, "episode"): begin(.episode)
        case (.itunes, "season"): begin(.season)
        case (.itunes, "episodeType"): begin(.episodeType)
        case (.itunes, "explicit"): begin(.explicit)
        case (.itunes, "image"):
            if let href = parser.resolve(attributes["href"]) { item?.imageURL = href }
        case (.none, "enclosure"):
            item?.enclosures.append(enclosure(attributes, urlAttribute: "url"))
        case (.media, "content"):
            item?.mediaContents.append(enclosure(attributes, urlAttribute: "url"))
        case (.media, "group"):
            return .mediaGroup
        case (.podcast, "chapters"):
            if let url = parser.resolve(attributes["url"]) { item?.chaptersURL = url }
        case (.podcast, "transcript"):
            if let url = parser.resolve(attributes["url"]) {
                item?.transcripts.append(
                    Transcript(url: url, type: attributes["type"], language: attributes["language"]))
            }
        case (.podcast, "person"):
            pendingPerson = Person(
                name: "", role: attributes["role"], href: parser.resolve(attributes["href"]),
                image: parser.resolve(attributes["img"]))
            begin(.person)
        case (.psc, "chapters"):
            return .pscChapters
        default:
            return .skipped
        }
        return .other
    }

    private func enclosure(_ attributes: XMLAttributes, urlAttribute: String) -> Enclosure {
        let length = attributes["length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        return Enclosure(
            url: parser.resolve(attributes[urlAttribute]) ?? "", length: length.flatMap { $0 > 0 ? $0 : nil },
            type: attributes["type"]?.trimmingCharacters(in: .whitespaces).lowercased())
    }

    private func addChapter(_ attributes: XMLAttributes) {
        guard let start = attributes["start"].flatMap(MediaDuration.offset) else { return }
        item?.chapters.append(
            Chapter(
                start: start, title: collapsingWhitespace(attributes["title"] ?? ""),
                href: parser.resolve(attributes["href"]), image: parser.resolve(attributes["image"])))
    }

    private func begin(_ field: Field) {
        text.removeAll(keepingCapacity: true)
        // The element is pushed right after this call, so its depth is one more than now.
        capture = (field, stack.count + 1)
    }

    private func commit(_ field: Field, _ value: String) {
        switch field {
        case .feedTitle: document.title = value
        case .feedLink: document.link = parser.resolve(value)
        case .feedDescription: document.description = nonEmpty(value) ?? document.description
        case .feedSummary: if document.description == nil { document.description = nonEmpty(value) }
        case .feedAuthor: document.author = nonEmpty(collapsingWhitespace(value))
        case .feedAtomAuthor:
            if item == nil, document.author == nil { document.author = nonEmpty(collapsingWhitespace(value)) }
        case .feedLanguage: document.language = nonEmpty(value.trimmingCharacters(in: .whitespacesAndNewlines))
        case .feedNewURL: document.newFeedURL = parser.resolve(value)
        case .feedType: document.isSerial = value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == "serial"
        case .feedExplicit: document.explicit = explicitFlag(value)
        case .feedGUID: document.podcastGUID = nonEmpty(value.trimmingCharacters(in: .whitespacesAndNewlines))
        case .feedImageURL: if document.imageURL == nil { document.imageURL = parser.resolve(value) }
        case .feedAtomIcon: if document.imageURL == nil { document.imageURL = parser.resolve(value) }
        default: commitItemField(field, value)
        }
    }

    private func commitItemField(_ field: Field, _ value: String) {
        guard var draft = item else { return }
        defer { item = draft }
        switch field {
        case .title: draft.title = value
        case .itunesTitle: draft.itunesTitle = value
        case .link: draft.link = parser.resolve(value)
        case .guid: draft.guid = nonEmpty(value.trimmingCharacters(in: .whitespacesAndNewlines))
        case .pubDate: draft.pubDate = value
        case .dcDate: draft.dcDate = value
        case .atomPublished: draft.pubDate = value
        case .atomUpdated: draft.dcDate = value
        case .description: draft.description = nonEmpty(value)
        case .contentEncoded: draft.contentEncoded = nonEmpty(value)
        case .summary: draft.summary = nonEmpty(value)
        case .atomContent: draft.contentEncoded = nonEmpty(value)
        case .duration: draft.duration = MediaDuration.seconds(value)
        case .episode: draft.episodeNumber = Int(value.trimmingCharacters(in: .whitespacesAndNewlines))
        case .season: draft.seasonNumber = Int(value.trimmingCharacters(in: .whitespacesAndNewlines))
        case .episodeType: draft.episodeType = nonEmpty(value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
        case .explicit: draft.explicit = explicitFlag(value)
        case .person:
            if var person = pendingPerson {
                person.name = collapsingWhitespace(value)
                if !person.name.isEmpty { draft.persons.append(person) }
            }
            pendingPerson = nil
        default: break
        }
    }

    private func explicitFlag(_ value: String) -> Bool? {
        switch value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
        case "yes", "true", "explicit": return true
        case "no", "false", "clean": return false
        default: return nil
        }
    }
}

/// An item as it is being read; `build` turns it into a `FeedItem` once the item ends.
private struct ItemDraft {
    var title = ""
    var itunesTitle = ""
    var guid: String?
    var link: String?
    var pubDate: String?
    var dcDate: String?
    var description: String?
    var contentEncoded: String?
    var summary: String?
    var duration: Double?
    var imageURL: String?
    var episodeNumber: Int?
    var seasonNumber: Int?
    var episodeType: String?
    var explicit: Bool?
    var enclosures: [Enclosure] = []
    var mediaContents: [Enclosure] = []
    var chapters: [Chapter] = []
    var chaptersURL: String?
    var transcripts: [Transcript] = []
    var persons: [Person] = []

    /// nil when the item has no enclosure: it is not an episode.
    func build(_ parser: FeedParser) -> FeedItem? {
        guard let enclosure = Self.pick(enclosures) ?? Self.pick(mediaContents) else { return nil }
        var item = FeedItem(enclosure: enclosure)
        item.title = collapsingWhitespace(title)
        if item.title.isEmpty { item.title = collapsingWhitespace(itunesTitle) }
        if item.title.isEmpty { item.title = Self.fileName(of: enclosure.url) }
        item.guid = guid
        item.link = link
        item.description = contentEncoded ?? description ?? summary
        item.published = (pubDate.flatMap(FeedDate.parse)) ?? (dcDate.flatMap(FeedDate.parse))
        item.duration = duration
        item.imageURL = imageURL
        item.episodeNumber = episodeNumber
        item.seasonNumber = seasonNumber
        item.episodeType = episodeType
        item.explicit = explicit
        item.chapters = chapters
        item.chaptersURL = chaptersURL
        item.transcripts = transcripts
        item.persons = persons
        return item
    }

    /// The first audio enclosure, else the first of any type; ones without a URL do not count.
    private static func pick(_ candidates: [Enclosure]) -> Enclosure? {
        let usable = candidates.filter { !$0.url.isEmpty }
        return usable.first { $0.type?.hasPrefix("audio/") == true } ?? usable.first
    }

    private static func fileName(of url: String) -> String {
        let path = URLComponents(string: url)?.path ?? url
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return last.removingPercentEncoding ?? last
    }
}

func nonEmpty(_ text: String) -> String? {
    text.allSatisfy(\.isWhitespace) ? nil : text
}

/// Trims and turns every run of whitespace (newlines and tabs included) into one space.
func collapsingWhitespace(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for scalar in text.unicodeScalars {
        if scalar.properties.isWhitespace {
            pendingSpace = !result.isEmpty
        } else {
            if pendingSpace { result.append(" ") }
            pendingSpace = false
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}
