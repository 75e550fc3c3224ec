/// What the search index is asked (an FTS5 query) for what a user typed after `list -s`.
///
/// Every word must match, as the beginning of a word in the title, the podcast's name or the
/// description ("krak" finds "Kraków"). Each word is quoted, so what FTS5's syntax would read as
/// an operator (`AND`, `-`, `:`, `(`) is only a word; the index's tokenizer then splits and folds
/// it as it did the texts (case, accents; "e-mail" is the phrase "e mail").
enum SearchQuery {
    /// The query for `text`; nil when `text` has no word (only spaces or punctuation), which
    /// nothing matches.
    static func match(_ text: String) -> String? {
        let words = text.split(whereSeparator: \.isWhitespace).filter { word in
            word.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        }
        guard !words.isEmpty else { return nil }
        return words.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }
}
