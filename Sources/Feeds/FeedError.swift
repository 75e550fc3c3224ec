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
        case .badEncoding: return "not a feed: its bytes do not decode in the encoding it declares"
        case .unreadable(let path, let code): return "could not read \(path): \(String(cString: strerror(code)))"
        }
    }
}

