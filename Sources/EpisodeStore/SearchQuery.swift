/// What the search index is asked (an FTS5 query) for what a user typed after `list -s`.
///
/// Every word must match, as the beginning of a word in the title, the podcast's name or the
/// description ("krak" finds "Kraków"). The text is split into words as the index's tokenizer
/// (unicode61) splits texts: letters, digits, private-use characters and combining marks make
/// words, anything else separates them ("e-mail" is "e" and "mail"). Each word is then quoted, so
/// what FTS5's syntax would read as an operator (`AND`, `NEAR`, `-`, `:`, `(`) is only a word, and
/// the tokenizer folds it as it folded the texts (case, accents). Split this way, no quoted string
/// is a phrase: each word matches wherever it is.
///
/// A word given twice (in any case) is asked for once: FTS5 looks each prefix up again, so 300
/// times "c" took 97 s and 30,000 ran out of memory. More different words than `wordLimit`, or
/// more than `characterLimit` characters of them, are refused (`StoreError.searchTooLong`).
enum SearchQuery {
    static let wordLimit = 32
    static let characterLimit = 1_000

    /// The query for `text`; nil when `text` has no word (only spaces or punctuation), which
    /// nothing matches.
    static func match(_ text: String) throws(StoreError) -> String? {
        guard let words = try words(text) else { return nil }
        return words.map { "\"" + $0 + "\"*" }.joined(separator: " ")
    }

    /// The different words of `text`, each once, as the index's tokenizer splits them (unfolded);
    /// nil when there is none.
    static func words(_ text: String) throws(StoreError) -> [String]? {
        var seen: Set<String> = []
        var words: [String] = []
        var characters = 0
        for scalars in text.unicodeScalars.split(whereSeparator: { !isWordScalar($0) }) {
            let word = String(String.UnicodeScalarView(scalars))
            guard seen.insert(word.lowercased()).inserted else { continue }
            words.append(word)
            characters += word.count
        }
        guard words.count <= wordLimit, characters <= characterLimit else {
            throw .searchTooLong(words: words.count, characters: characters)
        }
        return words.isEmpty ? nil : words
    }

    /// unicode61's default token characters (categories L*, N* and Co), and the combining marks
    /// that `remove_diacritics` folds into the letter before them.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse,
            .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }
}
