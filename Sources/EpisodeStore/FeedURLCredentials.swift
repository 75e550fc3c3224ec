/// A feed URL's `user:pass@`: a sync server strips it (it never goes up), so the server's URL of
/// a feed podcli fetches with credentials is the same URL without them.
enum FeedURLCredentials {
    /// `url` without the user and password of its authority: the key feeds are compared by.
    static func stripped(_ url: String) -> String {
        guard let (start, at) = userInfo(of: url) else { return url }
        return String(url[..<start]) + String(url[url.index(after: at)...])
    }

    /// `url` with the credentials of `local` put back, when `url` has none and `local` had some:
    /// what a server's new URL for a feed becomes here.
    static func keepingCredentials(of local: String, in url: String) -> String {
        guard let (start, at) = userInfo(of: local), userInfo(of: url) == nil,
            let schemeEnd = authorityStart(of: url)
        else { return url }
        return String(url[..<schemeEnd]) + String(local[start...at]) + String(url[schemeEnd...])
    }

    /// Just after the `://` of `url`'s scheme.
    private static func authorityStart(of url: String) -> String.Index? {
        var index = url.startIndex
        while index < url.endIndex, url[index] != "/" {
            if url[index...].hasPrefix("://") { return url.index(index, offsetBy: 3) }
            index = url.index(after: index)
        }
        return nil
    }

    /// Where the user information of `url` starts, and its `@` (the last of the authority).
    private static func userInfo(of url: String) -> (String.Index, String.Index)? {
        guard let start = authorityStart(of: url) else { return nil }
        let authorityEnd = url[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        guard let at = url[start..<authorityEnd].lastIndex(of: "@") else { return nil }
        return (start, at)
    }
}
