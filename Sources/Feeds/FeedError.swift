#if canImport(Glibc)
    import Glibc
#endif

/// Why a body could not be read as a feed; each message says what was wrong with it.
public enum FeedError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case notXML(line: Int, message: String)
    /// XML, but neither RSS nor Atom (an HTML page, an OPML file, ...).
    case notAFeed(root: String)
    case truncated(line: Int)
    /// One text in the document (a description, say) is longer than libxml2 reads in one piece.
    case textTooLong(line: Int)
    /// The bytes do not decode in the encoding the document declares (or it declares an unknown one).
    case badEncoding
    case unreadable(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .empty: return "the feed is empty"
        case .notXML(let line, let message): return "not a feed: not XML (line \(line): \(message))"
        case .notAFeed(let root) where root.lowercased() == "html": return "not a feed: an HTML page"
        case .notAFeed(let root): return "not a feed: the document is <\(root)>, not RSS or Atom"
        case .truncated(let line): return "the feed ends early (cut off at line \(line))"
        case .textTooLong(let line):
            return "not read: a text in the feed (at line \(line)) is longer than the 10 MB podcli reads in one piece"
        case .badEncoding: return "not a feed: its bytes do not decode in the encoding it declares"
        case .unreadable(let path, let code): return "could not read \(path): \(String(cString: strerror(code)))"
        }
    }
}

