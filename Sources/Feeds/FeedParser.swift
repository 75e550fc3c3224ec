import Chapters
import FoundationEssentials
import Strings

/// Reads RSS 2.0 and Atom feeds into a `FeedDocument`, streaming the XML through libxml2.
///
/// Lenient where real feeds are sloppy (undeclared `itunes:` prefix, blank line before `<?xml`,
/// odd durations and dates, relative URLs), strict where sloppiness would lose data: a body that
/// is empty, not XML, not a feed or cut off is an error, so nothing stored is changed by it.
public struct FeedParser: Sendable {
    /// Relative URLs in the feed are resolved against this (the feed's own URL).
    public let baseURL: String
    /// What the parse may take of libxml2's CPU time before the document is refused (`XMLStream`).
    public let budget: Duration

    /// What a document may take of libxml2's CPU time: a feed of thousands of episodes takes well
    /// under a second.
    public static let defaultBudget = Duration.seconds(20)

    public init(baseURL: String, budget: Duration = defaultBudget) {
        self.baseURL = baseURL
        self.budget = budget
    }

    /// Parses the feed in the file at `path`, reading it in chunks.
    public func parse(contentsOf path: String) throws(FeedError) -> FeedDocument {
        let reader = FeedReader(baseURL: baseURL, budget: budget)
        try XMLStream.readChunks(of: path, reader.feed)
        return try reader.finish()
    }

    /// Parses a feed held in memory (fed to libxml2 in chunks, like a file).
    public func parse(_ bytes: some Collection<UInt8>) throws(FeedError) -> FeedDocument {
        let reader = FeedReader(baseURL: baseURL, budget: budget)
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
}

/// One feed read incrementally, as its bytes arrive (from a file or straight from the network):
/// `feed` every piece in order, then `finish`.
///
/// Not `Sendable`: one reader belongs to one thread.
public final class FeedReader {
    private let reader: DocumentReader

    public init(baseURL: String, budget: Duration = FeedParser.defaultBudget) {
        reader = DocumentReader(baseURL: baseURL, budget: budget)
    }

    public func feed(_ bytes: UnsafeRawBufferPointer) { reader.feed(bytes) }

    /// The document, or why the bytes were not a complete feed.
    public func finish() throws(FeedError) -> FeedDocument { try reader.finish() }
}

/// The elements podcli reads, told apart once per distinct name (libxml2 interns names, so the
/// classification is cached by pointer).
private enum Tag {
    case rss, channel, item, title, link, description, guid, pubDate, enclosure, language, image, url
    case atomFeed, atomEntry, atomTitle, atomLink, atomID, atomPublished, atomUpdated, atomSubtitle, atomSummary
    case atomContent, atomAuthor, atomName, atomLogo, atomIcon
    case itunesTitle, itunesAuthor, itunesSummary, itunesImage, itunesDuration, itunesEpisode, itunesSeason
    case itunesEpisodeType, itunesExplicit, itunesType, itunesNewFeedURL
    case podcastGUID, podcastChapters, podcastTranscript, podcastPerson
    case contentEncoded, dcDate, mediaContent, mediaGroup, pscChapters, pscChapter
    case unknown

    /// - Parameter plainIsAtom: names without a namespace are Atom's (a `<feed>` root that
    ///   declares none: feedparser reads such a document as Atom, and so does podcli).
    init(_ name: XMLName, plainIsAtom: Bool = false) {
        let local = name.local
        switch name.namespace {
        case .none: self = (plainIsAtom ? Self.atom[local] : Self.plain[local]) ?? .unknown
        case .atom: self = Self.atom[local] ?? .unknown
        case .itunes: self = Self.itunes[local] ?? .unknown
        case .podcast: self = Self.podcast[local] ?? .unknown
        case .content: self = local == "encoded" ? .contentEncoded : .unknown
        case .dc: self = local == "date" ? .dcDate : .unknown
        case .media: self = local == "content" ? .mediaContent : local == "group" ? .mediaGroup : .unknown
        case .psc: self = local == "chapters" ? .pscChapters : local == "chapter" ? .pscChapter : .unknown
        case .other: self = .unknown
        }
    }

    private static let plain: [String: Tag] = [
        "rss": .rss, "channel": .channel, "item": .item, "title": .title, "link": .link, "description": .description,
        "guid": .guid, "pubDate": .pubDate, "enclosure": .enclosure, "language": .language, "image": .image,
        "url": .url,
    ]
    private static let atom: [String: Tag] = [
        "feed": .atomFeed, "entry": .atomEntry, "title": .atomTitle, "link": .atomLink, "id": .atomID,
        "published": .atomPublished, "updated": .atomUpdated, "subtitle": .atomSubtitle, "summary": .atomSummary,
        "content": .atomContent, "author": .atomAuthor, "name": .atomName, "logo": .atomLogo, "icon": .atomIcon,
    ]
    private static let itunes: [String: Tag] = [
        "title": .itunesTitle, "author": .itunesAuthor, "summary": .itunesSummary, "image": .itunesImage,
        "duration": .itunesDuration, "episode": .itunesEpisode, "season": .itunesSeason,
        "episodeType": .itunesEpisodeType, "explicit": .itunesExplicit, "type": .itunesType,
        "new-feed-url": .itunesNewFeedURL,
    ]
    private static let podcast: [String: Tag] = [
        "guid": .podcastGUID, "chapters": .podcastChapters, "transcript": .podcastTranscript,
        "person": .podcastPerson,
    ]
}

/// The delegate of one parse's `XMLStream`: hands each event to the `DocumentBuilder` it holds
/// (one access to it per event: the builder is a value, so Swift checks exclusive access once per
/// call rather than once per field it touches) and has the stream gather text only while the
/// builder wants it.
private final class DocumentReader: XMLStreamDelegate {
    private var builder: DocumentBuilder
    private var stream: XMLStream!

    init(baseURL: String, budget: Duration) {
        builder = DocumentBuilder(baseURL: baseURL)
        stream = XMLStream(delegate: self, budget: budget)
    }

    func feed(_ bytes: UnsafeRawBufferPointer) { stream.feed(bytes) }

    func finish() throws(FeedError) -> FeedDocument {
        let (rootSeen, rootClosed, errors) = try stream.finish()
        guard !stream.isEmpty else { throw .empty }
        if !rootClosed, stream.failedToDecode { throw .badEncoding }
        return try builder.document(rootSeen: rootSeen, rootClosed: rootClosed, errors: errors)
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) {
        stream.gathersText = builder.start(name, attributes)
    }

    func endElement() {
        stream.gathersText = stream.withGatheredText { builder.end(text: $0) }
    }
}

/// The state of one parse: which element we are in and what text is being gathered.
private struct DocumentBuilder {
    /// The elements whose position matters for what their children mean.
    private enum Node {
        case rssRoot, channel, atomFeed, item, rssImage, atomAuthor, mediaGroup, pscChapters, skipped, other
    }

    /// Where gathered text goes when its element ends.
    private enum Field {
        case feedTitle, feedLink, feedDescription, feedSummary, feedAuthor, feedLanguage, feedNewURL, feedType
        case feedExplicit, feedGUID, feedImageURL, feedAtomAuthor, feedAtomIcon
        case title, itunesTitle, itemAuthor, link, guid, pubDate, dcDate, atomPublished, atomUpdated
        case description, contentEncoded, summary, atomContent, duration, episode, season, episodeType, explicit
        case person
    }

    private struct TagKey: Hashable {
        let pointer: UnsafeRawPointer
        let namespace: Namespace
    }

    private let base: URL?
    private var tags: [TagKey: Tag] = [:]
    private var recentTags = [(key: TagKey, tag: Tag)?](repeating: nil, count: 64)
    private var stack: [Node] = []
    private var rootName: String?
    private var rootNode: Node?
    /// The root is a `<feed>` in no namespace: its unqualified children are read as Atom's.
    private var plainIsAtom = false
    private var document = FeedDocument()
    private var item: ItemDraft?
    /// The field the text being gathered belongs to, and the depth of its element.
    private var capture: (field: Field, depth: Int)?
    private var pendingPerson: Person?

    init(baseURL: String) {
        base = URL(string: baseURL)
        stack.reserveCapacity(32)
    }

    func document(rootSeen: Bool, rootClosed: Bool, errors: [XMLStreamFailure]) throws(FeedError) -> FeedDocument {
        guard rootSeen, let rootName else {
            let first = errors.first
            throw .notXML(line: first?.line ?? 1, message: first?.message ?? "no root element")
        }
        guard rootNode == .rssRoot || rootNode == .atomFeed else { throw .notAFeed(root: rootName) }
        guard rootClosed else { throw XMLStreamFailure.unfinished(errors) }
        var document = document
        document.warnings = errors.map { "line \($0.line): \($0.message)" }
        return document
    }

    // MARK: Events

    /// An element starts. Returns whether text is to be gathered now.
    mutating func start(_ name: XMLName, _ attributes: XMLAttributes) -> Bool {
        guard let parent = stack.last else {
            rootName = name.local
            let tag = tag(of: name)
            plainIsAtom = name.namespace == .none && name.local == "feed"
            rootNode = tag == .rss ? .rssRoot : tag == .atomFeed || plainIsAtom ? .atomFeed : .skipped
            stack.append(rootNode!)
            return false
        }
        if parent == .skipped || capture != nil {
            // Inside an element we ignore, or markup inside gathered text (Atom xhtml content).
            stack.append(parent == .skipped ? .skipped : .other)
            return capture != nil
        }
        let tag = tag(of: name)
        let node: Node
        switch parent {
        case .rssRoot:
            node = tag == .channel ? .channel : .skipped
        case .channel, .atomFeed:
            node = startFeedChild(tag, attributes)
        case .item, .mediaGroup:
            node = startItemChild(tag, attributes)
        case .rssImage:
            if tag == .url { begin(.feedImageURL) }
            node = .other
        case .atomAuthor:
            if tag == .atomName { begin(.feedAtomAuthor) }
            node = .other
        case .pscChapters:
            if tag == .pscChapter { addChapter(attributes) }
            node = .other
        case .skipped, .other:
            node = .skipped
        }
        stack.append(node)
        return capture != nil
    }

    /// The innermost open element ends; `text` is what was gathered. Returns whether text is
    /// still to be gathered.
    mutating func end(text: UnsafeBufferPointer<UInt8>) -> Bool {
        if let capture, capture.depth == stack.count {
            commit(capture.field, text)
            self.capture = nil
        }
        if stack.removeLast() == .item, let draft = item.take() {
            let unusable = draft.firstUnusableEnclosure
            if let episode = draft.build() {
                document.items.append(episode)
            } else if let unusable {
                document.skipUnusableEnclosure(unusable)
            } else {
                document.itemsWithoutEnclosure += 1
            }
        }
        return capture != nil
    }

    // MARK: Elements

    private mutating func tag(of name: XMLName) -> Tag {
        let key = TagKey(pointer: UnsafeRawPointer(name.pointer), namespace: name.namespace)
        // A feed has a few dozen distinct names; a direct-mapped cache in front of the dictionary
        // answers almost every element without hashing.
        let slot = Int(bitPattern: UInt(bitPattern: key.pointer)) >> 3 & (recentTags.count - 1)
        if let recent = recentTags[slot], recent.key == key { return recent.tag }
        let tag = tags[key] ?? Tag(name, plainIsAtom: plainIsAtom)
        tags[key] = tag
        recentTags[slot] = (key, tag)
        return tag
    }

    private mutating func startFeedChild(_ tag: Tag, _ attributes: XMLAttributes) -> Node {
        switch tag {
        case .item, .atomEntry:
            item = ItemDraft()
            return .item
        case .title, .atomTitle: begin(.feedTitle)
        case .link: begin(.feedLink)
        case .atomLink:
            if attributes["rel"] ?? "alternate" == "alternate", document.link == nil {
                document.link = resolve(attributes["href"])
            }
        case .description, .atomSubtitle: begin(.feedDescription)
        case .itunesSummary: begin(.feedSummary)
        case .itunesAuthor: begin(.feedAuthor)
        case .language: begin(.feedLanguage)
        case .itunesNewFeedURL: begin(.feedNewURL)
        case .itunesType: begin(.feedType)
        case .itunesExplicit: begin(.feedExplicit)
        case .podcastGUID: begin(.feedGUID)
        case .itunesImage:
            if let href = resolve(attributes["href"]) { document.imageURL = href }
        case .image: return .rssImage
        case .atomAuthor: return .atomAuthor
        case .atomLogo, .atomIcon: begin(.feedAtomIcon)
        default: return .skipped
        }
        return .other
    }

    private mutating func startItemChild(_ tag: Tag, _ attributes: XMLAttributes) -> Node {
        switch tag {
        case .title, .atomTitle: begin(.title)
        case .itunesTitle: begin(.itunesTitle)
        case .link: begin(.link)
        case .atomLink:
            let rel = attributes["rel"] ?? "alternate"
            if rel == "enclosure" {
                let found = enclosure(attributes, urlAttribute: attributes["href"])
                item?.enclosures.append(found)
            } else if rel == "alternate", item?.link == nil {
                let link = resolve(attributes["href"])
                item?.link = link
            }
        case .guid, .atomID: begin(.guid)
        case .pubDate: begin(.pubDate)
        case .dcDate: begin(.dcDate)
        case .atomPublished: begin(.atomPublished)
        case .atomUpdated: begin(.atomUpdated)
        case .description: begin(.description)
        case .contentEncoded: begin(.contentEncoded)
        case .itunesSummary, .atomSummary: begin(.summary)
        case .atomContent: begin(.atomContent)
        case .itunesDuration: begin(.duration)
        case .itunesEpisode: begin(.episode)
        case .itunesSeason: begin(.season)
        case .itunesEpisodeType: begin(.episodeType)
        case .itunesExplicit: begin(.explicit)
        case .itunesAuthor: begin(.itemAuthor)
        case .itunesImage:
            if let href = resolve(attributes["href"]) { item?.imageURL = href }
        case .enclosure:
            let found = enclosure(attributes, urlAttribute: attributes["url"])
            item?.enclosures.append(found)
        case .mediaContent:
            let found = enclosure(attributes, urlAttribute: attributes["url"])
            item?.mediaContents.append(found)
        case .mediaGroup:
            return .mediaGroup
        case .podcastChapters:
            if let url = resolve(attributes["url"]) { item?.chaptersURL = url }
        case .podcastTranscript:
            if let url = resolve(attributes["url"]) {
                item?.transcripts.append(
                    Transcript(
                        url: url, type: attributes["type"], language: attributes["language"], rel: attributes["rel"]))
            }
        case .podcastPerson:
            pendingPerson = Person(
                name: "", role: attributes["role"], href: resolve(attributes["href"]),
                image: resolve(attributes["img"]))
            begin(.person)
        case .pscChapters:
            return .pscChapters
        default:
            return .skipped
        }
        return .other
    }

    private func enclosure(_ attributes: XMLAttributes, urlAttribute url: String?) -> Enclosure {
        let length = attributes["length"].flatMap { Int64($0) }
        return Enclosure(
            url: resolve(url) ?? "", length: length.flatMap { $0 > 0 ? $0 : nil },
            type: attributes["type"]?.lowercased())
    }

    private mutating func addChapter(_ attributes: XMLAttributes) {
        guard let start = attributes["start"].flatMap(MediaDuration.offset) else { return }
        let chapter = Chapter(
            start: start, title: collapsingWhitespace(attributes["title"] ?? ""), url: resolve(attributes["href"]),
            image: resolve(attributes["image"]))
        item?.chapters.append(chapter)
    }

    /// An absolute URL for a (trimmed) URL found in the feed, resolved against the feed's URL,
    /// with the characters a URL cannot hold (a space in a file name) encoded.
    private func resolve(_ url: String?) -> String? {
        guard let url = url.map(URLRepair.encodingIllegalCharacters), !url.isEmpty else { return nil }
        if isAbsoluteHTTP(url.utf8) { return url }
        return URL(string: url, relativeTo: base)?.absoluteString ?? url
    }

    /// Gathers the element's text for `field` (the stream starts gathering afresh).
    private mutating func begin(_ field: Field) {
        // The element is pushed right after this call, so its depth is one more than now.
        capture = (field, stack.count + 1)
    }

    /// Stores gathered text. Titles and names have their whitespace collapsed, short values are
    /// trimmed, descriptions are kept as given.
    private mutating func commit(_ field: Field, _ bytes: UnsafeBufferPointer<UInt8>) {
        switch field {
        case .feedTitle: document.title = collapsedString(bytes)
        case .feedLink: document.link = resolve(trimmedString(bytes))
        case .feedDescription: document.description = nonBlankString(bytes) ?? document.description
        case .feedSummary: if document.description == nil { document.description = nonBlankString(bytes) }
        case .feedAuthor: document.author = nonEmpty(collapsedString(bytes))
        case .feedAtomAuthor:
            if item == nil, document.author == nil { document.author = nonEmpty(collapsedString(bytes)) }
        case .feedLanguage: document.language = nonEmpty(trimmedString(bytes))
        case .feedNewURL: document.newFeedURL = resolve(trimmedString(bytes))
        case .feedType: document.isSerial = trimmedString(bytes).lowercased() == "serial"
        case .feedExplicit: document.explicit = Self.explicitFlag(trimmedString(bytes))
        case .feedGUID: document.podcastGUID = nonEmpty(trimmedString(bytes))
        case .feedImageURL, .feedAtomIcon:
            if document.imageURL == nil { document.imageURL = resolve(trimmedString(bytes)) }
        case .title: item?.title = collapsedString(bytes)
        case .itunesTitle: item?.itunesTitle = collapsedString(bytes)
        case .itemAuthor: item?.author = nonEmpty(collapsedString(bytes))
        case .link:
            let link = resolve(trimmedString(bytes))
            item?.link = link
        case .guid: item?.guid = nonEmpty(trimmedString(bytes))
        case .pubDate, .atomPublished: item?.published = FeedDate.parse(trimmedString(bytes))
        case .dcDate, .atomUpdated: item?.updated = FeedDate.parse(trimmedString(bytes))
        case .description: item?.description = nonBlankString(bytes)
        case .contentEncoded, .atomContent: item?.contentEncoded = nonBlankString(bytes)
        case .summary: item?.summary = nonBlankString(bytes)
        case .duration: item?.duration = MediaDuration.seconds(trimmedString(bytes))
        case .episode: item?.episodeNumber = Int(trimmedString(bytes))
        case .season: item?.seasonNumber = Int(trimmedString(bytes))
        case .episodeType: item?.episodeType = nonEmpty(trimmedString(bytes).lowercased())
        case .explicit: item?.explicit = Self.explicitFlag(trimmedString(bytes))
        case .person:
            if var person = pendingPerson {
                person.name = collapsedString(bytes)
                if !person.name.isEmpty { item?.persons.append(person) }
            }
            pendingPerson = nil
        }
    }

    private static func explicitFlag(_ value: String) -> Bool? {
        switch value.lowercased() {
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
    var author: String?
    var guid: String?
    var link: String?
    /// RSS pubDate or Atom published; else dc:date or Atom updated.
    var published: Int64?
    var updated: Int64?
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
    consuming func build() -> FeedItem? {
        guard let enclosure = Self.pick(enclosures) ?? Self.pick(mediaContents) else { return nil }
        var item = FeedItem(enclosure: enclosure)
        item.title = !title.isEmpty ? title : !itunesTitle.isEmpty ? itunesTitle : Self.fileName(of: enclosure.url)
        item.guid = guid
        item.author = author
        item.link = link
        item.description = contentEncoded ?? description ?? summary
        item.published = published ?? updated
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

    /// The first enclosure whose URL podcli cannot fetch (`ftp:`, `data:`), when no other is
    /// usable: what a note about the skipped item names.
    var firstUnusableEnclosure: String? {
        (enclosures + mediaContents).first { !$0.url.isEmpty && !$0.isFetchable }?.url
    }

    /// The first audio enclosure, else the first of any type; ones without an http or https URL
    /// do not count.
    private static func pick(_ candidates: [Enclosure]) -> Enclosure? {
        var firstUsable: Enclosure?
        for candidate in candidates where candidate.isFetchable {
            if candidate.type?.hasPrefix("audio/") == true { return candidate }
            if firstUsable == nil { firstUsable = candidate }
        }
        return firstUsable
    }

    private static func fileName(of url: String) -> String {
        let path = URLComponents(string: url)?.path ?? url
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return last.removingPercentEscapes() ?? last
    }
}

extension Enclosure {
    /// An absolute http or https URL with a host: what podcli downloads.
    var isFetchable: Bool { isAbsoluteHTTP(url.utf8) && URLComponents(string: url)?.host?.isEmpty == false }
}

private func isAbsoluteHTTP(_ utf8: String.UTF8View) -> Bool {
    var iterator = utf8.makeIterator()
    for expected in "http".utf8 {
        guard let byte = iterator.next(), byte | 0x20 == expected else { return false }
    }
    var next = iterator.next()
    if next.map({ $0 | 0x20 }) == UInt8(ascii: "s") { next = iterator.next() }
    return next == UInt8(ascii: ":") && iterator.next() == UInt8(ascii: "/") && iterator.next() == UInt8(ascii: "/")
}

func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

/// The text with surrounding whitespace trimmed.
private func trimmedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(decoding: trimming(bytes), as: UTF8.self)
}

/// The text as given, or nil when it is only whitespace.
private func nonBlankString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    trimming(bytes).isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
}

/// The text trimmed, with every run of whitespace inside (newlines and tabs included) made one space.
private func collapsedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let trimmed = trimming(bytes)
    var needsWork = false
    for index in trimmed.indices where isASCIISpace(trimmed[index]) {
        if trimmed[index] != 0x20 || (index + 1 < trimmed.count && isASCIISpace(trimmed[index + 1])) {
            needsWork = true
            break
        }
    }
    guard needsWork else { return String(decoding: trimmed, as: UTF8.self) }
    var result: [UInt8] = []
    result.reserveCapacity(trimmed.count)
    var pendingSpace = false
    for byte in trimmed {
        if isASCIISpace(byte) {
            pendingSpace = true
        } else {
            if pendingSpace { result.append(0x20) }
            pendingSpace = false
            result.append(byte)
        }
    }
    return String(decoding: result, as: UTF8.self)
}

/// `collapsedString` for text already in a String (attribute values).
func collapsingWhitespace(_ text: String) -> String {
    var text = text
    return text.withUTF8 { collapsedString($0) }
}
