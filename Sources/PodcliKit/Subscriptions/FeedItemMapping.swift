import EpisodeStore
import Feeds
import FoundationEssentials
import Strings

extension FeedMetadata {
    public init(_ document: FeedDocument, url: String) {
        self.init(title: document.title.isEmpty ? (URLComponents(string: url)?.host ?? url) : document.title)
        link = document.link
        description = document.description
        author = document.author
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
            title: item.title, sourceURL: item.enclosure.url, mediaKey: TrackingPrefix.strip(item.enclosure.url))
        guid = item.guid
        author = item.author
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
