/// Everything that can go wrong in the episode store, worded so a user can act on it.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite refused an operation: its result code, its own message, and what podcli was doing.
    case sqlite(code: Int32, message: String, operation: String)
    /// The database was written by a newer podcli, whose schema this build does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// A migration failed and was rolled back; the database stays at the previous version.
    case migrationFailed(name: String, message: String)
    /// The disk holding the library (`directory`) is full, or a quota is reached: SQLite could
    /// not write the database.
    case noSpace(directory: String)
    /// A file operation in the data directory failed.
    case io(path: String, operation: String, errno: Int32)
    /// No episode matches what the user typed.
    case episodeNotFound(String)
    /// More than one episode matches a UUID prefix.
    case ambiguousEpisode(String, matches: Int)
    /// No subscription matches what the user typed.
    case feedNotFound(String)
    /// More than one subscription's title contains what the user typed.
    case ambiguousFeed(String, titles: [String])
    /// Another podcli process holds what this one needs.
    case busy(String)
    /// A search of more different words, or more characters of them, than `SearchQuery` takes.
    case searchTooLong(words: Int, characters: Int)

    public var description: String {
        switch self {
        case .sqlite(let code, let message, let operation):
            return "database error while \(operation): \(message) (SQLite code \(code))"
        case .newerSchema(let path, let found, let supported):
            return "\(path) was written by a newer podcli (schema \(found); this podcli knows up to "
                + "\(supported)): upgrade podcli, or use another --home"
        case .migrationFailed(let name, let message):
            return "could not upgrade the database with \(name): \(message); nothing was changed"
        case .noSpace(let directory):
            return "no space left on the disk holding \(directory): free some space, then try again"
        case .io(let path, let operation, let errno):
            return "could not \(operation) \(path): \(String(cString: strerror(errno)))"
        case .episodeNotFound(let reference):
            return "no episode '\(reference)': give its number or a UUID prefix (see 'podcli list')"
        case .ambiguousEpisode(let reference, let matches):
            return "'\(reference)' matches \(matches) episodes: give more of the UUID"
        case .feedNotFound(let reference):
            return "no feed '\(reference)': give its number, its URL or a part of its title (see 'podcli feeds')"
        case .ambiguousFeed(let reference, let titles):
            let shown = titles.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
            return "'\(reference)' matches \(titles.count) feeds (\(shown)\(titles.count > 3 ? ", ..." : "")): "
                + "give more of the title or the feed's number"
        case .busy(let what):
            return "busy: \(what); try again when it has finished"
        case .searchTooLong(let words, let characters):
            return "the search is too long (\(words) different words, \(characters) characters): "
                + "give at most \(SearchQuery.wordLimit) words and \(SearchQuery.characterLimit) characters"
        }
    }
}

extension StoreError {
    /// True when the disk is full (or a quota or file-size limit is reached), not the record at
    /// fault: SQLite could not write (`noSpace`), or a file operation failed with ENOSPC, EDQUOT
    /// or EFBIG.
    public var isOutOfSpace: Bool {
        switch self {
        case .noSpace: return true
        case .io(_, _, let code): return code == ENOSPC || code == EDQUOT || code == EFBIG
        default: return false
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
