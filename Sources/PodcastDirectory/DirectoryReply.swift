import Downloads
import FoundationEssentials

/// A directory's answer read as its documented JSON, or the one error that says why not.
enum DirectoryReply {
    /// Sends `request` and decodes the answer as `T`.
    /// - Throws: `DirectoryError`: `.exchange` (or `.keyRefused` for Podcast Index) when no 2xx
    ///   answer came, `.htmlPage`, `.unreadable`.
    static func fetch<T: Decodable>(
        _ request: APIRequest, from directory: String, with client: APIClient, as type: T.Type
    ) throws(DirectoryError) -> T {
        let reply: APIReply
        do {
            reply = try client.perform(request)
        } catch {
            if case .unauthorized(let status, _, _) = error {
                throw directory == PodcastIndex.name
                    ? .keyRefused(status: status) : .refused(directory: directory, status: status, url: request.url)
            }
            throw .exchange(directory: directory, error)
        }
        return try decode(reply.body, mediaType: reply.mediaType, url: request.url, as: type)
    }

    /// `body` as `T`. Apple answers `text/javascript`, so the type is not asked to be JSON; an
    /// HTML page (a captive portal, a web page where the API was expected) is told apart.
    static func decode<T: Decodable>(_ body: [UInt8], mediaType: String?, url: String, as type: T.Type)
        throws(DirectoryError) -> T
    {
        let start = body.first {
            ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0)
        }
        if mediaType == "text/html" || mediaType == "application/xhtml+xml" || start == UInt8(ascii: "<") {
            throw .htmlPage(url: url)
        }
        guard start != nil else { throw .unreadable(url: url, detail: "the answer is empty") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let error as DecodingError {
            throw .unreadable(url: url, detail: Self.detail(of: error))
        } catch {
            throw .unreadable(url: url, detail: "not JSON")
        }
    }

    /// What was wrong, in a few words: "'results' is missing", "'resultCount' is not a number".
    private static func detail(of error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ key: CodingKey? = nil) -> String {
            let keys = (context.codingPath + (key.map { [$0] } ?? [])).filter { $0.intValue == nil }
            return keys.last.map { "'\($0.stringValue)'" } ?? "the answer"
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context, key)) is missing"
        case .valueNotFound(_, let context): return "\(path(context)) is null"
        case .typeMismatch(let type, let context):
            let expected = type == String.self ? "text" : type == Int.self ? "a number" : "of another kind"
            return "\(path(context)) is not \(expected)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context)) is malformed"
        @unknown default: return "not JSON"
        }
    }
}
