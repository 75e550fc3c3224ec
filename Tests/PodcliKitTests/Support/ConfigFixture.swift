import EpisodeStore
import Foundation
import TestSupport

@testable import PodcliKit

/// A configuration file of a test's own, and a library subscribed to feeds by title (recorded
/// directly: what a section names is a matter of titles, numbers and URLs, not of the network).
struct ConfigFixture {
    let home: TemporaryDirectory
    let library: Library
    var path: String { home.path + "/config" }

    init(feeds titles: [String] = []) throws {
        home = try TemporaryDirectory(prefix: "podcli-config")
        library = try Library(directory: home.path + "/data")
        for (index, title) in titles.enumerated() {
            _ = try library.subscribe(
                url: Self.url(index + 1), metadata: FeedMetadata(title: title), episodes: [], etag: nil,
                lastModified: nil, protection: .private)
        }
    }

    /// The URL feed number `id` was subscribed from.
    static func url(_ id: Int) -> String { "https://feeds.example.com/\(id).xml" }

    var feeds: [Feed] { get throws { try library.subscriptions() } }

    func feed(_ id: Int) throws -> Feed {
        guard let feed = try library.feed(id: id) else { throw TestSupportError("no feed #\(id)") }
        return feed
    }

    /// Writes `text` as the file and reads it as every command does.
    func read(_ text: String) throws -> Config {
        try home.write(text, to: "config")
        return try Config(path: path)
    }

    func text() throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// What `config set|unset --feed NAME` changes: the sections whose NAME means the feed NAME
    /// means, by `FeedReference`'s rule; a new section is named by the feed's title.
    func target(_ name: String) throws -> ConfigFile.Target {
        let feeds = try self.feeds
        let feed = try FeedReference.match(name, in: feeds)
        return ConfigFile.Target(name: feed.title) { (try? FeedReference.match($0, in: feeds))?.id == feed.id }
    }
}
