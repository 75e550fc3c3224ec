import Chapters

/// What a feed says about a podcast and its episodes, read from RSS 2.0 (with the iTunes,
/// Podcasting 2.0, Podlove Simple Chapters, Media RSS, content and Dublin Core namespaces) or Atom.
public struct FeedDocument: Sendable, Equatable, Encodable {
    public var title = ""
    public var link: String?
    /// The description as the feed gives it (often HTML).
    public var description: String?
    public var author: String?
    public var imageURL: String?
    public var language: String?
    /// `itunes:new-feed-url`: where the publisher says the feed has moved.
    public var newFeedURL: String?
    /// `itunes:type` serial: episodes are meant to be heard oldest first.
    public var isSerial = false
    public var explicit: Bool?
    public var podcastGUID: String?
    /// Items with an enclosure, in document order. Items without one are not episodes.
    public var items: [FeedItem] = []
    /// Items skipped because they had no enclosure.
    public var itemsWithoutEnclosure = 0
    /// Items skipped because no enclosure of theirs is at an http or https URL (`ftp:`,
    /// `data:`), and the first such URL (its start), for a note.
    public private(set) var itemsWithUnusableEnclosure = 0
    public private(set) var firstUnusableEnclosure: String?
    /// Mistakes the XML reader recovered from (line and message), for `podcli inspect`.
    public var warnings: [String] = []

    public init() {}

    mutating func skipUnusableEnclosure(_ url: String) {
        itemsWithUnusableEnclosure += 1
        // A `data:` URL may hold a whole file: its start says what it is.
        if firstUnusableEnclosure == nil {
            firstUnusableEnclosure = url.count > 80 ? String(url.prefix(80)) + "…" : url
        }
    }

    /// "skipped 2 items whose audio is not at an http or https URL (the first: ftp://…)", or nil.
    public var unusableEnclosureNote: String? {
        guard let firstUnusableEnclosure else { return nil }
        let one = itemsWithUnusableEnclosure == 1
        return "skipped \(one ? "1 item" : "\(itemsWithUnusableEnclosure) items") whose audio is not at an http or "
            + "https URL (\(one ? "" : "the first: ")\(firstUnusableEnclosure))"
    }
}

public struct FeedItem: Sendable, Equatable, Encodable {
    public var title = ""
    /// The item's own `itunes:author`, when it names one (a guest host, another show's).
    public var author: String?
    public var guid: String?
    public var link: String?
    /// `content:encoded`, else `description`, else `itunes:summary` (Atom: content, else summary).
    public var description: String?
    public var enclosure: Enclosure
    /// Unix seconds, UTC; nil when the feed gives no date or one that cannot be read.
    public var published: Int64?
    public var duration: Double?
    public var imageURL: String?
    public var episodeNumber: Int?
    public var seasonNumber: Int?
    /// `itunes:episodeType`: full, trailer or bonus.
    public var episodeType: String?
    public var explicit: Bool?
    /// Podlove Simple Chapters given inline.
    public var chapters: [Chapter] = []
    /// `podcast:chapters`: a JSON chapters file.
    public var chaptersURL: String?
    public var transcripts: [Transcript] = []
    public var persons: [Person] = []

    public init(enclosure: Enclosure) { self.enclosure = enclosure }
}

public struct Enclosure: Sendable, Equatable, Encodable {
    /// Absolute (resolved against the feed's URL), trimmed.
    public var url: String
    /// In bytes; nil when the feed leaves it out or gives 0.
    public var length: Int64?
    public var type: String?

    public init(url: String, length: Int64? = nil, type: String? = nil) {
        self.url = url
        self.length = length
        self.type = type
    }
}

/// One `podcast:transcript` offer; an item may offer several (formats, languages).
public struct Transcript: Sendable, Equatable, Codable {
    public var url: String
    public var type: String?
    public var language: String?
    /// "captions" when the file is timed captions rather than a transcript proper.
    public var rel: String? = nil
}

public struct Person: Sendable, Equatable, Codable {
    public var name: String
    public var role: String?
    public var href: String?
    public var image: String?
}
