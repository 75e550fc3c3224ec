import Strings

/// What a podcast link a user pastes stands for: a feed URL behind a podcast scheme (`itpc://`,
/// `pcast://`, `podcast://`, `feed:`), or an Apple Podcasts page (`idNNNN`), whose feed the
/// lookup API gives. A pure function of the text: nothing is fetched here.
public enum PodcastLink: Equatable, Sendable {
    /// The http or https feed URL the link wraps.
    case feed(String)
    /// Apple's id of the podcast, to look up.
    case apple(id: Int)

    static let podcastSchemes = ["itpc", "pcast", "podcast"]
    static let appleHosts: Set<String> = ["podcasts.apple.com", "itunes.apple.com"]

    /// The link `text` is, or nil when it is none of these (an http URL of a feed or audio, a
    /// name): podcli reads that as it always did.
    ///
    /// - `itpc://host/feed`, `pcast://`, `podcast://`: https, unless what follows the scheme is a
    ///   whole URL (`podcast://http://host/feed`) or says http (`pcast://http//host/feed`).
    /// - `feed://host/feed` as those; `feed:https://host/feed` is the URL after "feed:".
    /// - `https://podcasts.apple.com/us/podcast/name/id123?i=456` (any country, with or without
    ///   the name, http or https, itunes.apple.com too, or `?id=123`): Apple's podcast 123.
    public static func resolve(_ text: String) -> PodcastLink? {
        let trimmed = text.trimmingWhitespaceAndNewlines()
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let scheme = trimmed[..<colon].lowercased()
        let rest = trimmed[trimmed.index(after: colon)...]
        if podcastSchemes.contains(scheme) || scheme == "feed" {
            if scheme == "feed", let url = wholeURL(rest) { return .feed(url) }
            guard rest.hasPrefix("//") else { return nil }
            let afterSlashes = rest.dropFirst(2)
            if let url = wholeURL(afterSlashes) { return .feed(url) }
            return hostAndPath(afterSlashes).map { .feed("https://" + $0) }
        }
        guard scheme == "http" || scheme == "https", rest.hasPrefix("//") else { return nil }
        return appleID(in: rest.dropFirst(2)).map { .apple(id: $0) }
    }

    /// `rest` when it is an http(s) URL itself; also the "http//host" some apps write.
    private static func wholeURL(_ rest: Substring) -> String? {
        let lowered = rest.lowercased()
        for (prefix, scheme) in [("https://", "https"), ("http://", "http"), ("https//", "https"), ("http//", "http")]
        where lowered.hasPrefix(prefix) {
            return hostAndPath(rest.dropFirst(prefix.count)).map { scheme + "://" + $0 }
        }
        return nil
    }

    /// `text` when it starts with a host name: nothing empty, no space, no second scheme.
    private static func hostAndPath(_ text: Substring) -> String? {
        let host = text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !text.contains(where: \.isWhitespace) else { return nil }
        return String(text)
    }

    /// Apple's podcast id in a link without its scheme: the path's `idNNNN`, or the query's `id=NNNN`.
    private static func appleID(in link: Substring) -> Int? {
        let hostEnd = link.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? link.endIndex
        var host = link[..<hostEnd].lowercased()
        if let port = host.lastIndex(of: ":") { host = String(host[..<port]) }
        guard appleHosts.contains(host) else { return nil }
        let afterHost = link[hostEnd...].prefix { $0 != "#" }
        let path = afterHost.prefix { $0 != "?" }
        for component in path.split(separator: "/").reversed() where component.hasPrefix("id") {
            if let id = number(component.dropFirst(2)) { return id }
        }
        let query = afterHost.drop { $0 != "?" }.dropFirst()
        for pair in query.split(separator: "&") where pair.hasPrefix("id=") {
            if let id = number(pair.dropFirst(3)) { return id }
        }
        return nil
    }

    private static func number(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits).flatMap { $0 > 0 ? $0 : nil }
    }
}
