import FoundationEssentials
import Strings

/// The headers of the last response of a transfer (a redirect's headers are replaced by the
/// next response's).
struct ResponseHeaders {
    private(set) var status = 0
    private(set) var fields: [String: String] = [:]

    /// Takes one header line as libcurl delivers it (with its CRLF).
    mutating func take(line: String) {
        let line = line.trimmingWhitespaceAndNewlines()
        if line.hasPrefix("HTTP/") {
            status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
            fields = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            fields[name] = line[line.index(after: colon)...].trimmingWhitespace()
        }
    }

    subscript(name: String) -> String? { fields[name] }

    /// The media type without parameters, lowercased: "audio/mpeg".
    var mediaType: String? {
        self["content-type"].map {
            ($0.split(separator: ";", omittingEmptySubsequences: false).first ?? "")
                .trimmingWhitespace().lowercased()
        }
    }

    /// ETag, or else Last-Modified: what a resume sends back as If-Range.
    var validator: String? { self["etag"] ?? self["last-modified"] }

    /// The first byte and the total length of a 206 answer (`Content-Range: bytes 100-199/200`),
    /// or only the total of a 416 answer (`bytes */200`).
    var contentRange: (start: Int?, total: Int?)? {
        guard let value = self["content-range"], value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let start = parts[0] == "*" ? nil : parts[0].split(separator: "-").first.flatMap { Int($0) }
        return (start, Int(parts[1]))
    }

    var contentLength: Int? { self["content-length"].flatMap { Int($0) } }

    /// Seconds to wait from a Retry-After header: delta-seconds or an HTTP date.
    var retryAfter: Int? {
        guard let value = self["retry-after"] else { return nil }
        if let seconds = Int(value) { return max(0, seconds) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, Int(Date(timeIntervalSince1970: Double(date)).timeIntervalSinceNow.rounded(.up)))
    }

    /// The file name a Content-Disposition header suggests, if any (RFC 6266 `filename*` first).
    var dispositionFileName: String? {
        guard let value = self["content-disposition"] else { return nil }
        var plain: String?
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "filename*":
                // charset'language'percent-encoded
                let pieces = pair[1].split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3, let decoded = pieces[2].removingPercentEscapes() { return decoded }
            case "filename":
                plain = pair[1].trimming { $0 == "\"" }
            default: continue
            }
        }
        return plain
    }
}
