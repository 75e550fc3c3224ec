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
    ///
    /// Works on the URL's UTF-8 bytes: it runs once per episode of every feed read.
    public static func strip(_ url: String) -> String {
        let bytes = Array(url.utf8)
        var rest = trimmingSpaces(bytes[...])
        if let length = schemeLength(of: rest) {
            rest = rest.dropFirst(length)
        } else if hasOtherScheme(rest) {
            return String(decoding: rest, as: UTF8.self)
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

    /// The patterns of each prefix host, by lowercased host name.
    private static let patternsByHost: [String: [[String]]] = {
        var table: [String: [[String]]] = [:]
        for rule in rules { for host in rule.hosts { table[host] = rule.patterns } }
        return table
    }()

    private typealias Bytes = ArraySlice<UInt8>

    /// What follows the prefix `url` starts with (its scheme already removed), or nil if it has none.
    private static func removeOnePrefix(_ url: Bytes) -> Bytes? {
        let hostEnd = url.firstIndex(where: { $0 == slash || $0 == question || $0 == hash }) ?? url.endIndex
        guard hostEnd < url.endIndex, url[hostEnd] == slash else { return nil }
        let host = withoutDefaultPort(url[..<hostEnd])
        guard let patterns = patternsByHost[String(decoding: host.map(lowercased), as: UTF8.self)] else { return nil }
        let path = url[(hostEnd + 1)...]
        for pattern in patterns {
            guard var rest = matchSegments(pattern, in: path) else { continue }
            if host.count >= 7, equalsIgnoringCase(host.suffix(7), "pdst.fm") { rest = unescapingSlashes(rest) }
            rest = rest.drop(while: { $0 == slash })
            rest = dropEmbeddedScheme(rest)
            if startsWithHostAndPath(rest) { return rest }
        }
        return nil
    }

    /// The text after `pattern`'s segments and their slashes, or nil if the path doesn't start so.
    private static func matchSegments(_ pattern: [String], in path: Bytes) -> Bytes? {
        var rest = path
        for expected in pattern {
            guard let end = rest.firstIndex(of: slash) else { return nil }
            let segment = rest[..<end]
            let matches: Bool
            if expected == "*" {
                matches = !segment.isEmpty
            } else if expected.hasSuffix("*") {
                let stem = expected.dropLast()
                matches = segment.count > stem.utf8.count && equalsIgnoringCase(segment.prefix(stem.utf8.count), stem)
            } else {
                matches = equalsIgnoringCase(segment, expected)
            }
            guard matches else { return nil }
            rest = rest[(end + 1)...]
        }
        return rest
    }

    /// Prefixes may carry the target's scheme: `https://`, `http:/` (a slash merged away),
    /// `https%3A//` (chartable), or `https/` (voxalyze). The result has no scheme anyway.
    private static func dropEmbeddedScheme(_ text: Bytes) -> Bytes {
        if let length = schemeLength(of: text) { return text.dropFirst(length).drop(while: { $0 == slash }) }
        for scheme in ["https", "http"] {
            let count = scheme.utf8.count
            guard text.count > count, equalsIgnoringCase(text.prefix(count), scheme) else { continue }
            var rest = text.dropFirst(count)
            if rest.first == UInt8(ascii: ":") {
                rest = rest.dropFirst()
            } else if rest.count >= 3, equalsIgnoringCase(rest.prefix(3), "%3A") {
                rest = rest.dropFirst(3)
            } else if rest.first != slash {
                continue
            }
            guard rest.first == slash else { continue }
            return rest.drop(while: { $0 == slash })
        }
        return text
    }

    /// The length of a leading `http://` or `https://` in any case, or nil.
    private static func schemeLength(of text: Bytes) -> Int? {
        for scheme in ["https://", "http://"] {
            let count = scheme.utf8.count
            if text.count >= count && equalsIgnoringCase(text.prefix(count), scheme) { return count }
        }
        return nil
    }

    /// Whether `text` starts with something shaped like a host name (letters, digits, dashes and
    /// at least one inner dot, maybe a port) followed by `/`.
    private static func startsWithHostAndPath(_ text: Bytes) -> Bool {
        guard let end = text.firstIndex(of: slash) else { return false }
        var host = text[..<end]
        if let colon = host.firstIndex(of: UInt8(ascii: ":")) {
            let port = host[(colon + 1)...]
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
    private static func unescapingSlashes(_ text: Bytes) -> Bytes {
        let queryStart = text.firstIndex(of: question) ?? text.endIndex
        guard text[..<queryStart].contains(UInt8(ascii: "%")) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = text.startIndex
        while index < queryStart {
            if text[index] == UInt8(ascii: "%"), index + 2 < queryStart, text[index + 1] == UInt8(ascii: "2"),
                text[index + 2] | 0x20 == UInt8(ascii: "f")
            {
                result.append(slash)
                index += 3
            } else {
                result.append(text[index])
                index += 1
            }
        }
        result += text[queryStart...]
        return result[...]
    }

    /// `host/path?query`: host lowercased without a default port, fragment dropped.
    private static func normalized(_ url: Bytes) -> String {
        let withoutFragment = trimmingSpaces(url[..<(url.firstIndex(of: hash) ?? url.endIndex)])
        let hostEnd = withoutFragment.firstIndex(where: { $0 == slash || $0 == question }) ?? withoutFragment.endIndex
        var result = withoutDefaultPort(withoutFragment[..<hostEnd]).map(lowercased)
        result += withoutFragment[hostEnd...]
        return String(decoding: result, as: UTF8.self)
    }

    private static func withoutDefaultPort(_ host: Bytes) -> Bytes {
        for port in [":80", ":443"]
        where host.count >= port.utf8.count && host.suffix(port.utf8.count).elementsEqual(port.utf8) {
            return host.dropLast(port.utf8.count)
        }
        return host
    }

    /// ASCII case-insensitive comparison, without building lowercased copies.
    private static func equalsIgnoringCase(_ a: Bytes, _ b: some StringProtocol) -> Bool {
        guard a.count == b.utf8.count else { return false }
        return zip(a, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) &- UInt8(ascii: "a") < 26)
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    private static func trimmingSpaces(_ text: Bytes) -> Bytes {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let start = text.firstIndex(where: { !isSpace($0) }) ?? text.endIndex
        let end = text.lastIndex(where: { !isSpace($0) }).map { $0 + 1 } ?? start
        return text[start..<end]
    }

    /// Whether `text` starts with a scheme other than http(s) (`ftp://`, `file://`): not ours to
    /// rewrite.
    private static func hasOtherScheme(_ text: Bytes) -> Bool {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon > text.startIndex,
            text[colon...].starts(with: "://".utf8)
        else { return false }
        return text[..<colon].allSatisfy { byte in
            (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let hash = UInt8(ascii: "#")
}
