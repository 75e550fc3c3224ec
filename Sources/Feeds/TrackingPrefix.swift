/// Removes the analytics prefixes podcasts put in front of their media URLs, to find the URL an
/// episode's identity is compared by.
///
/// A prefix service receives the request, counts it and redirects to the URL written after its own
/// path (`https://dts.podtrac.com/redirect.mp3/example.com/ep1.mp3` → `example.com/ep1.mp3`).
/// Hosts stack them, and add or drop them between feed fetches, so the same episode shows up under
/// many URLs. The table follows OP3's chain estimator (skymethod/op3, `worker/chain_estimate.ts`),
/// which is kept up to date against live redirects.
///
/// The result is `host/path?query` with no scheme (the same file is often served over http and
/// https), the host lowercased, a default port (`:80`, `:443`) and any `#fragment` dropped, and the
/// path and query kept as they are. A prefix is only removed when what follows it starts with a
/// plausible host name and a `/`, so a real file on a prefix host (`media.blubrry.com/show/ep.mp3`)
/// stays. Redirect services that don't write the target into the URL
/// (`tracking.feedpress.it/link/…`) can't be seen through and stay, as do media hosts
/// (`traffic.megaphone.fm`). Text that isn't an http(s) URL is returned trimmed but otherwise as is.
public enum TrackingPrefix: Sendable {
    /// The canonical form of a media URL: prefixes removed, as `host/path?query`.
    public static func strip(_ url: String) -> String {
        var rest = trimmingSpaces(url)
        if let length = schemeLength(of: rest) {
            rest = rest.dropFirst(length)
        } else if hasOtherScheme(rest) {
            return String(rest)
        }
        // Each pass removes one prefix; the bound only guards against a pathological input.
        for _ in 0..<64 {
            guard let inner = removeOnePrefix(rest) else { break }
            rest = inner
        }
        return normalized(rest)
    }

    /// One prefix host and the path segments that make up its prefix. `*` stands for any one
    /// segment (an account or tracking id); a trailing `*` in a pattern (`redirect.*`) for any
    /// ending. Patterns are tried in order and the first that leaves a host name wins.
    private struct Rule {
        let hosts: [String]
        let patterns: [[String]]
    }

    private static let rules: [Rule] = [
        Rule(hosts: ["op3.dev", "ci.op3.dev", "staging.op3.dev"], patterns: [["e"], ["e,*"]]),
        Rule(hosts: ["dts.podtrac.com"], patterns: [["redirect.*"], ["pts", "redirect.*"]]),
        Rule(hosts: ["www.podtrac.com", "podtrac.com"], patterns: [["pts", "redirect.*"], ["redirect.*"]]),
        Rule(hosts: ["play.podtrac.com"], patterns: [["*"]]),
        Rule(hosts: ["pdst.fm"], patterns: [["e"]]),
        Rule(hosts: ["chrt.fm", "chtbl.com"], patterns: [["track", "*"]]),
        Rule(hosts: ["pfx.veritonicmetrics.com"], patterns: [["*"]]),
        Rule(hosts: ["arttrk.com"], patterns: [["p", "*"]]),
        Rule(hosts: ["pdcn.co"], patterns: [["e"]]),
        Rule(hosts: ["2.gum.fm"], patterns: [[]]),
        Rule(hosts: ["s.gum.fm"], patterns: [["r1", "*"], ["s-*"]]),
        Rule(hosts: ["verifi.podscribe.com", "pscrb.fm"], patterns: [["rss", "p"]]),
        Rule(hosts: ["claritaspod.com", "www.claritaspod.com"], patterns: [["measure"]]),
        Rule(hosts: ["clrtpod.com"], patterns: [["m"], ["m", "*"]]),
        Rule(hosts: ["growx.podkite.com"], patterns: [["https", "*"], ["http", "*"]]),
        Rule(hosts: ["media.blubrry.com"], patterns: [["*"], ["*", "p"]]),
        Rule(hosts: ["mgln.ai"], patterns: [["e", "*"], ["track"]]),
        Rule(hosts: ["p.podderapp.com"], patterns: [["*"]]),
        Rule(hosts: ["r.zen.ai", "r.zencastr.com"], patterns: [["r"]]),
        Rule(hosts: ["t.glystn.com"], patterns: [["v2", "track", "*"]]),
        Rule(hosts: ["adbarker.com"], patterns: [["stream", "*"]]),
        Rule(hosts: ["letscast.fm"], patterns: [["track"]]),
        Rule(hosts: ["pfx.vpixl.com"], patterns: [["*"]]),
        Rule(hosts: ["bktrks.co"], patterns: [["t", "*"]]),
        Rule(hosts: ["pdrl.fm"], patterns: [["*"], ["r", "*", "*"]]),
        Rule(hosts: ["a.pdcst.to"], patterns: [["*"]]),
        Rule(hosts: ["prfx.byspotify.com"], patterns: [["e"]]),
        Rule(hosts: ["ipfspodcasting.net"], patterns: [["e"]]),
        Rule(hosts: ["cohst.app"], patterns: [["pdcst", "*"]]),
        Rule(hosts: ["swap.fm", "tracking.swap.fm"], patterns: [["track", "*"]]),
        Rule(hosts: ["pdcds.co"], patterns: [["*"]]),
        Rule(hosts: ["prefix.up.audio"], patterns: [["s"]]),
        Rule(hosts: ["m.pfxes.com"], patterns: [["*"]]),
    ]

    /// What follows the prefix `url` starts with (its scheme already removed), or nil if it has none.
    private static func removeOnePrefix(_ url: Substring) -> Substring? {
        let hostEnd = url.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        guard hostEnd < url.endIndex, url[hostEnd] == "/" else { return nil }
        let host = withoutDefaultPort(url[..<hostEnd])
        guard let rule = rules.first(where: { $0.hosts.contains(where: { equalsIgnoringCase(host, $0) }) }) else {
            return nil
        }
        let path = url[url.index(after: hostEnd)...]
        for pattern in rule.patterns {
            guard var rest = matchSegments(pattern, in: path) else { continue }
            if host.hasSuffix("pdst.fm") { rest = unescapingSlashes(rest) }
            rest = rest.drop(while: { $0 == "/" })
            rest = dropEmbeddedScheme(rest)
            if startsWithHostAndPath(rest) { return rest }
        }
        return nil
    }

    /// The text after `pattern`'s segments and their slashes, or nil if the path doesn't start so.
    private static func matchSegments(_ pattern: [String], in path: Substring) -> Substring? {
        var rest = path
        for expected in pattern {
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            let segment = rest[..<slash]
            let matches: Bool
            if expected == "*" {
                matches = !segment.isEmpty
            } else if expected.hasSuffix("*") {
                let stem = expected.dropLast()
                matches = segment.count > stem.count && equalsIgnoringCase(segment.prefix(stem.count), stem)
            } else {
                matches = equalsIgnoringCase(segment, expected)
            }
            guard matches else { return nil }
            rest = rest[rest.index(after: slash)...]
        }
        return rest
    }

    /// Prefixes may carry the target's scheme: `https://`, `http:/` (a slash merged away),
    /// `https%3A//` (chartable), or `https/` (voxalyze). The result has no scheme anyway.
    private static func dropEmbeddedScheme(_ text: Substring) -> Substring {
        if let length = schemeLength(of: text) { return text.dropFirst(length).drop(while: { $0 == "/" }) }
        for scheme in ["https", "http"] {
            guard text.count > scheme.count, equalsIgnoringCase(text.prefix(scheme.count), scheme) else { continue }
            var rest = text.dropFirst(scheme.count)
            if rest.first == ":" {
                rest = rest.dropFirst()
            } else if rest.count >= 3, equalsIgnoringCase(rest.prefix(3), "%3A") {
                rest = rest.dropFirst(3)
            } else if rest.first != "/" {
                continue
            }
            guard rest.first == "/" else { continue }
            return rest.drop(while: { $0 == "/" })
        }
        return text
    }

    /// The length of a leading `http://` or `https://` in any case, or nil.
    private static func schemeLength(of text: Substring) -> Int? {
        for scheme in ["https://", "http://"]
        where text.count >= scheme.count && equalsIgnoringCase(text.prefix(scheme.count), scheme) {
            return scheme.count
        }
        return nil
    }

    /// Whether `text` starts with something shaped like a host name (letters, digits, dashes and
    /// at least one inner dot, maybe a port) followed by `/`.
    private static func startsWithHostAndPath(_ text: Substring) -> Bool {
        guard let slash = text.firstIndex(of: "/") else { return false }
        var host = text[..<slash].utf8[...]
        if let colon = host.firstIndex(of: UInt8(ascii: ":")) {
            let port = host[host.index(after: colon)...]
            guard !port.isEmpty, port.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return false }
            host = host[..<colon]
        }
        guard let first = host.first, let last = host.last, first != UInt8(ascii: "."), last != UInt8(ascii: "."),
            host.contains(UInt8(ascii: "."))
        else { return false }
        return host.allSatisfy { byte in
            (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
        }
    }

    /// pdst.fm's targets may have their slashes escaped (`%2F`); only in the path, not the query.
    private static func unescapingSlashes(_ text: Substring) -> Substring {
        let queryStart = text.firstIndex(of: "?") ?? text.endIndex
        let path = text[..<queryStart]
        guard path.contains("%") else { return text }
        return Substring(path.replacing("%2F", with: "/").replacing("%2f", with: "/") + text[queryStart...])
    }

    /// `host/path?query`: host lowercased without a default port, fragment dropped.
    private static func normalized(_ url: Substring) -> String {
        let withoutFragment = trimmingSpaces(String(url[..<(url.firstIndex(of: "#") ?? url.endIndex)]))
        let hostEnd = withoutFragment.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? withoutFragment.endIndex
        let host = withoutDefaultPort(withoutFragment[..<hostEnd]).lowercased()
        return host + withoutFragment[hostEnd...]
    }

    private static func withoutDefaultPort(_ host: Substring) -> Substring {
        for port in [":80", ":443"] where host.hasSuffix(port) { return host.dropLast(port.count) }
        return host
    }

    /// ASCII case-insensitive comparison, without building lowercased copies.
    private static func equalsIgnoringCase<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) &- UInt8(ascii: "a") < 26)
        }
    }

    private static func trimmingSpaces(_ text: String) -> Substring {
        let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" }
        let start = text.firstIndex(where: { !isSpace($0) }) ?? text.endIndex
        let end = text.lastIndex(where: { !isSpace($0) }).map(text.index(after:)) ?? start
        return text[start..<end]
    }

    /// Whether `text` starts with a scheme other than http(s) (`ftp://`, `file://`): not ours to
    /// rewrite.
    private static func hasOtherScheme(_ text: Substring) -> Bool {
        guard let separator = text.firstRange(of: "://") else { return false }
        let scheme = text[..<separator.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
