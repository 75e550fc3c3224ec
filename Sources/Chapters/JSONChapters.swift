import FoundationEssentials

/// Podcasting 2.0 JSON chapters (the file `podcast:chapters` points to,
/// https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/examples/chapters/jsonChapters.md):
/// `{"version": "1.2.0", "chapters": [{"startTime": 0, "title": ..., "img": ..., "url": ...,
/// "endTime": ..., "toc": false}]}`. A chapter with `"toc": false` is not a stop for next and
/// previous; one without a title still has its start.
public enum JSONChapters {
    /// The chapters of a JSON chapters file.
    /// - Throws: `ChapterProblem` (`.json`) when the bytes are not JSON chapters: not JSON, no
    ///   `chapters` array, a chapter without a start of zero or more seconds, more than
    ///   `ChapterProblem.maximumChapters`.
    public static func parse(_ bytes: [UInt8]) throws(ChapterProblem) -> [Chapter] {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(bytes))
        } catch DecodingError.keyNotFound(let key, _) {
            throw ChapterProblem(.json, "it has no \"\(key.stringValue)\"")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            throw ChapterProblem(
                .json, path.isEmpty ? "it is not an object" : "\"\(path)\" is not what the format says")
        } catch {
            throw ChapterProblem(.json, "it is not JSON")
        }
        guard document.chapters.count <= ChapterProblem.maximumChapters else {
            throw ChapterProblem(.json, "more than \(ChapterProblem.maximumChapters) chapters")
        }
        return try document.chapters.enumerated().map { (index, entry) throws(ChapterProblem) in
            guard entry.startTime.isFinite, entry.startTime >= 0 else {
                throw ChapterProblem(.json, "chapter \(index + 1) starts at \(entry.startTime) s")
            }
            return Chapter(
                start: entry.startTime, end: entry.endTime.flatMap { $0.isFinite ? $0 : nil },
                title: entry.title.flatMap(nonEmpty), url: entry.url.flatMap(nonEmpty),
                image: entry.img.flatMap(nonEmpty),
                isNavigationStop: entry.toc ?? true)
        }
    }

    private static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    private struct Document: Decodable {
        let chapters: [Entry]
    }

    private struct Entry: Decodable {
        let startTime: Double
        let endTime: Double?
        let title: String?
        let img: String?
        let url: String?
        let toc: Bool?
    }
}
