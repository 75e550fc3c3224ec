/// What an episode's audio is said to be, for `list` and `show` to name its format.
public struct MediaTypeHint: Equatable, Sendable {
    /// The recorded file's content type (the sniffed container's, when the server's said less).
    public let fileType: String?
    /// The feed's enclosure type.
    public let enclosureType: String?
    public let sourceURL: String
}

extension Library {
    /// The media type hints of the episodes numbered `ids`, by number: one query however many.
    public func mediaTypeHints(of ids: [Int]) throws(StoreError) -> [Int: MediaTypeHint] {
        guard !ids.isEmpty else { return [:] }
        let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
        let rows = try database.rows(
            """
            SELECT e.id, (SELECT content_type FROM files WHERE episode_id = e.id ORDER BY id LIMIT 1),
                   e.enclosure_type, e.source_url
            FROM episodes e WHERE e.id IN (SELECT value FROM json_each(?))
            """, [.text(list)])
        var hints: [Int: MediaTypeHint] = [:]
        for row in rows {
            hints[Int(row.int(0)!)] = MediaTypeHint(
                fileType: row.string(1), enclosureType: row.string(2), sourceURL: row.string(3)!)
        }
        return hints
    }
}
