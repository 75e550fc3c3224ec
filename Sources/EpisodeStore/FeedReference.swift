import Strings

/// What a user types to name a feed, and the one rule for which feed it means, wherever a feed is
/// named (`list FEED`, `unsubscribe`, `[feed "NAME"]` sections, `config ... --feed NAME`): its
/// number, its URL, or a part of its title that only one feed's title contains, ignoring case (a
/// title that is exactly what was typed wins over titles that merely contain it).
public enum FeedReference {
    /// The feed among `feeds` that `reference` names.
    /// - Throws: `StoreError.feedNotFound` or `.ambiguousFeed`.
    public static func match(_ reference: String, in feeds: [Feed]) throws(StoreError) -> Feed {
        if let id = Int(reference), let feed = feeds.first(where: { $0.id == id }) { return feed }
        if let feed = feeds.first(where: { $0.url == reference }) { return feed }
        let trimmed = reference.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .feedNotFound(reference) }
        let key = caseFolded(trimmed)
        let matches = feeds.filter { caseFolded($0.title).contains(key) }
        if matches.count == 1 { return matches[0] }
        let exact = matches.filter { caseFolded($0.title) == key }
        if exact.count == 1 { return exact[0] }
        if matches.isEmpty { throw .feedNotFound(reference) }
        throw .ambiguousFeed(reference, titles: matches.map(\.title))
    }

    /// `text` for comparing without case, as Foundation's case-insensitive comparisons did:
    /// uppercasing first folds "ß" to "ss", "ς" to "σ" and "ﬁ" to "fi" as they do.
    static func caseFolded(_ text: String) -> String {
        text.uppercased().lowercased()
    }
}
