import Foundation

/// `Tests/Support/directory_server.py` as a child process: the iTunes Search and Lookup APIs and
/// Podcast Index's search on 127.0.0.1, answering from a catalogue of entries shaped as those
/// directories list a podcast, checking Podcast Index's signature, and with bad answers under
/// `/fault/<mode>` (see the script's header).
public final class DirectoryServer: Sendable {
    public let port: Int
    public let key: String
    public let secret: String
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// What `podcastindex-url` is set to.
    public var podcastIndexURL: String { baseURL + "/api/1.0" }

    private let process: ServerProcess
    private let catalogue: TemporaryDirectory

    /// Starts a server answering with `apple` (iTunes results) and `podcastIndex` (Podcast Index
    /// feeds), each a JSON object as the directory documents it.
    public init(
        apple: [[String: Any]], podcastIndex: [[String: Any]] = [], key: String = "UXKCGDSYGUUEVQJSYDZH",
        secret: String = "yzJe2eE7XV-3eY576dyRZ6wXyAbndh6LUrCZ8KN|"
    ) throws {
        catalogue = try TemporaryDirectory(prefix: "podcli-directory")
        let file = catalogue.url.appendingPathComponent("catalogue.json")
        try JSONSerialization.data(withJSONObject: ["apple": apple, "podcastindex": podcastIndex]).write(to: file)
        let script = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("directory_server.py")
        self.key = key
        self.secret = secret
        process = try ServerProcess(
            "directory server", executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", script.path, "--catalogue", file.path, "--key", key, "--secret", secret],
            startupTimeout: 5)
        port = process.port
    }

    /// The base URL whose answers are bad in `mode` ("html", "forbidden", "empty", "miscount",
    /// "nofeed", "declined", "notjson", "wrongtype").
    public func faulty(_ mode: String) -> String { baseURL + "/fault/" + mode }

    /// The requests answered so far: path with query, and headers by lowercased name.
    public func requests() throws -> [(path: String, headers: [String: String])] {
        let response = try MiniHTTP.request(port: port, method: "GET", target: "/__requests", headers: [:], timeout: 10)
        let list = try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]] ?? []
        return list.map { ($0["path"] as? String ?? "", $0["headers"] as? [String: String] ?? [:]) }
    }

    public var log: String { process.log }

    public func stop() { process.stop() }

    deinit { stop() }
}

extension DirectoryServer {
    /// A podcast as the iTunes Search API lists it (every field Apple sends for a podcast, as in
    /// its "Understanding Search Results"); `feed` nil leaves `feedUrl` out, as for Apple-only shows.
    public static func appleEntry(
        id: Int, title: String, author: String, feed: String?, episodes: Int = 12,
        released: String = "2026-11-30T10:00:00Z", genre: String = "Technology"
    ) -> [String: Any] {
        var entry: [String: Any] = [
            "wrapperType": "track", "kind": "podcast", "collectionId": id, "trackId": id, "artistName": author,
            "collectionName": title, "trackName": title, "collectionCensoredName": title,
            "trackCensoredName": title,
            "collectionViewUrl": "https://podcasts.apple.com/us/podcast/show/id\(id)?uo=4",
            "trackViewUrl": "https://podcasts.apple.com/us/podcast/show/id\(id)?uo=4",
            "artworkUrl30": "https://is1-ssl.mzstatic.com/image/thumb/\(id)/30x30bb.jpg",
            "artworkUrl60": "https://is1-ssl.mzstatic.com/image/thumb/\(id)/60x60bb.jpg",
            "artworkUrl100": "https://is1-ssl.mzstatic.com/image/thumb/\(id)/100x100bb.jpg",
            "artworkUrl600": "https://is1-ssl.mzstatic.com/image/thumb/\(id)/600x600bb.jpg",
            "collectionPrice": 0.0, "trackPrice": 0.0, "collectionHdPrice": 0, "releaseDate": released,
            "collectionExplicitness": "notExplicit", "trackExplicitness": "cleaned", "trackCount": episodes,
            "trackTimeMillis": 1833, "country": "USA", "currency": "USD", "primaryGenreName": genre,
            "contentAdvisoryRating": "Clean", "genreIds": ["1318", "26"], "genres": [genre, "Podcasts"],
        ]
        if let feed { entry["feedUrl"] = feed }
        return entry
    }

    /// A feed as Podcast Index's search/byterm lists it (its documented `feed_search` fields).
    public static func podcastIndexEntry(
        id: Int, title: String, author: String, feed: String?, episodes: Int = 40, newest: Int = 1_764_000_000,
        categories: Any = ["102": "Technology", "9": "Business"]
    ) -> [String: Any] {
        var entry: [String: Any] = [
            "id": id, "podcastGuid": "9b024349-ccf0-5f69-a609-6b82873eab3c", "title": title,
            "originalUrl": feed ?? "", "link": "https://example.com/show/\(id)", "description": "About \(title).",
            "author": author, "ownerName": author, "image": "https://example.com/\(id).jpg",
            "artwork": "https://example.com/\(id).jpg", "lastUpdateTime": newest, "lastCrawlTime": newest,
            "lastParseTime": newest, "lastGoodHttpStatusTime": newest, "lastHttpStatus": 200,
            "contentType": "application/rss+xml", "itunesId": NSNull(), "generator": NSNull(), "language": "en",
            "explicit": false, "type": 0, "medium": "podcast", "dead": 0, "episodeCount": episodes,
            "crawlErrors": 0, "parseErrors": 0, "categories": categories, "locked": 0, "imageUrlHash": 1_234_567,
            "newestItemPubdate": newest,
        ]
        if let feed { entry["url"] = feed }
        return entry
    }
}
