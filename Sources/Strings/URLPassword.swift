/// Passwords in URLs kept off the terminal and the logs: `http://user:secret@host/feed` is shown as
/// `http://user:***@host/feed`. The URL itself (stored, handed to libcurl) keeps its password; only
/// what is printed or logged loses it.
public enum URLPassword {
    /// What a password is shown as.
    public static let mask = "***"

    /// `text` with the password of every URL in it (after `://`, up to the last `@` of the
    /// authority) replaced by `mask`. Anything may be around the URLs: an error line, a JSON or
    /// OPML document. A URL with a user and no password is left as it is.
    public static func hidden(in text: String) -> String {
        // Nearly every line has no "@": leave it untouched.
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        var text = text
        return text.withUTF8 { bytes in
            var result: [UInt8] = []
            var copied = 0
            var index = 0
            while index + 2 < bytes.count {
                guard bytes[index] == colon, bytes[index + 1] == slash, bytes[index + 2] == slash else {
                    index += 1
                    continue
                }
                let start = index + 3
                var end = start
                var lastAt: Int?
                while end < bytes.count, !endsAuthority(bytes[end]) {
                    if bytes[end] == at { lastAt = end }
                    end += 1
                }
                if let lastAt, let separator = (start..<lastAt).first(where: { bytes[$0] == colon }),
                    separator + 1 < lastAt
                {
                    result.append(contentsOf: bytes[copied...separator])
                    result.append(contentsOf: mask.utf8)
                    copied = lastAt
                }
                index = end
            }
            guard copied > 0 else { return String(decoding: bytes, as: UTF8.self) }
            result.append(contentsOf: bytes[copied...])
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// `url` without its user name and password (`https://u:p@host/feed` → `https://host/feed`):
    /// the URL as told to a sync server, which must never learn a feed's credentials. Text that
    /// is not `scheme://...`, or has no `@` in its authority, is returned as it is.
    public static func removingUserInfo(from url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let authority = url[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + url[url.index(after: at)...]
    }

    private static let colon = UInt8(ascii: ":")
    private static let slash = UInt8(ascii: "/")
    private static let at = UInt8(ascii: "@")

    /// Where a URL's authority (user, password, host, port) ends: at its path, query or fragment,
    /// and at what cannot be in a URL but ends one in text (spaces, controls, quotes, brackets of
    /// markup, a JSON escape). Bytes of non-ASCII characters are never ASCII, so never end it.
    private static func endsAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case 0...0x20, 0x7F: true
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "`"): true
        default: false
        }
    }
}
