import Foundation

/// An RSS 2.0 document with the iTunes namespace, written by the test that serves it.
struct RSS {
    struct Item {
        var title: String
        var guid: String?
        /// Seconds since the epoch, written as an RFC 822 pubDate.
        var published: Int?
        var url: String
        var length: Int? = 1_000
    }

    var title: String
    /// In the order the document lists them.
    var items: [Item]
    /// Written into `<channel>` as is (an `itunes:new-feed-url`, ...).
    var channelExtra = ""

    var text: String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>"#,
            "<title>\(Self.escaped(title))</title>", channelExtra,
        ]
        for item in items {
            lines.append("<item><title>\(Self.escaped(item.title))</title>")
            if let guid = item.guid { lines.append("<guid isPermaLink=\"false\">\(Self.escaped(guid))</guid>") }
            if let published = item.published { lines.append("<pubDate>\(Self.date(published))</pubDate>") }
            let length = item.length.map { " length=\"\($0)\"" } ?? ""
            lines.append("<enclosure url=\"\(Self.escaped(item.url))\"\(length) type=\"audio/mpeg\"/></item>")
        }
        return (lines + ["</channel></rss>", ""]).joined(separator: "\n")
    }

    /// `n` items, newest first, whose enclosures are not fetched: `Episode n`, published on day n
    /// of 2025.
    static func unfetched(_ count: Int, show: String = "show") -> [Item] {
        (1...count).reversed().map { n in
            Item(
                title: "Episode \(n)", guid: "\(show)-\(n)", published: 1_735_689_600 + n * 86_400,
                url: "https://media.example.com/\(show)/ep\(n).mp3")
        }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    private static func date(_ seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
