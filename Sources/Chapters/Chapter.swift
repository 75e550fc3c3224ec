/// One chapter of an episode, wherever it was read: a feed's Podlove Simple Chapters, a Podcasting
/// 2.0 JSON chapters file, or the chapters written into the audio file itself.
public struct Chapter: Sendable, Equatable, Codable {
    /// Seconds of media from the start.
    public var start: Double
    /// Seconds of media; nil when the source gives none (the next chapter's start ends it).
    public var end: Double?
    /// nil when the source gives none: the chapter still has its start.
    public var title: String?
    public var url: String?
    /// The chapter's picture: a URL, or `Chapter.imageInFile` for one embedded in the audio file
    /// (ID3 APIC inside a CHAP frame), which is not read.
    public var image: String?
    /// False for JSON chapters marked `"toc": false`: shown, but not a stop for next and previous.
    public var isNavigationStop: Bool

    /// The `image` of a chapter whose picture is inside the audio file: not a URL (no scheme), so
    /// never taken for one.
    public static let imageInFile = "embedded"

    public init(
        start: Double, end: Double? = nil, title: String? = nil, url: String? = nil, image: String? = nil,
        isNavigationStop: Bool = true
    ) {
        self.start = start
        self.end = end
        self.title = title
        self.url = url
        self.image = image
        self.isNavigationStop = isNavigationStop
    }

    // `href` and no `toc` are how chapters were stored (and shown by `show --json`) before there were
    // other sources; the keys stay.
    private enum CodingKeys: String, CodingKey {
        case start, end, title, image
        case url = "href"
        case isNavigationStop = "toc"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decode(Double.self, forKey: .start)
        end = try container.decodeIfPresent(Double.self, forKey: .end)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        image = try container.decodeIfPresent(String.self, forKey: .image)
        isNavigationStop = try container.decodeIfPresent(Bool.self, forKey: .isNavigationStop) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encodeIfPresent(end, forKey: .end)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(image, forKey: .image)
        if !isNavigationStop { try container.encode(false, forKey: .isNavigationStop) }
    }
}
