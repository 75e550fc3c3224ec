import EpisodeStore
import Feeds
import FoundationEssentials
import Strings

extension FeedMetadata {
    public init(_ document: FeedDocument, url: String) {
        let title = document.title.isEmpty ? (URLComponents(string: url)?.host ?? url) : document.title
        self.init(title: StoredText.capped(title))
        link = document.link
        description = document.description
        author = document.author.map(StoredText.capped)
        imageURL = document.imageURL
        language = document.language
        isSerial = document.isSerial
        explicit = document.explicit
        podcastGUID = document.podcastGUID
    }
}

extension EpisodeMetadata {
    public init(_ item: FeedItem) {
        self.init(
            title: StoredText.capped(item.title), sourceURL: item.enclosure.url,
            mediaKey: TrackingPrefix.strip(item.enclosure.url))
        guid = item.guid
        author = item.author.map(StoredText.capped)
        publishedAt = item.published.map(Int.init)
        durationMilliseconds = item.duration.map { Int(($0 * 1000).rounded()) }
        enclosureLength = item.enclosure.length.map(Int.init)
        enclosureType = item.enclosure.type
        link = item.link
        description = item.description
        imageURL = item.imageURL
        episodeNumber = item.episodeNumber
        seasonNumber = item.seasonNumber
        episodeType = item.episodeType
        explicit = item.explicit
        chaptersJSON = Self.json(item.chapters)
        chaptersURL = item.chaptersURL
        transcriptsJSON = Self.json(item.transcripts)
        personsJSON = Self.json(item.persons)
    }

    /// A compact JSON array, or nil for an empty one.
    private static func json<T: Encodable>(_ values: [T]) -> String? {
        guard !values.isEmpty, let data = try? JSONEncoder().encode(values) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The names a feed gives (titles, authors) as they are stored: a feed can make one megabytes
/// long, and every listing would carry it.
enum StoredText {
    /// The most UTF-8 bytes a stored title or author keeps.
    static let limit = 4096

    /// `text`, or its longest prefix of whole characters within `limit` bytes.
    static func capped(_ text: String) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            kept += text.utf8.distance(from: index, to: next)
            guard kept <= limit else { break }
            end = next
        }
        return String(text[..<end])
    }
}
