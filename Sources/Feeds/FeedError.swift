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
    /// A character XML does not allow (a control character), where libxml2 stopped reading.
    case illegalCharacter(line: Int)
    /// One text in the document (a description, say) is longer than libxml2 reads in one piece.
    case textTooLong(line: Int)
    /// The bytes do not decode in the encoding the document declares (or it declares an unknown one).
    case badEncoding
    case unreadable(path: String, errno: Int32)
    /// A start tag with more attributes than any real document has (`StartTagScanner`).
    case tooManyAttributes(line: Int, limit: Int)
    /// An encoding in which markup is not ASCII bytes (UTF-7, EBCDIC, ISO-2022), which the count
    /// of attributes cannot read (`StartTagScanner`); nil: an XML declaration too long to read.
    case unreadableEncoding(String?)
    /// Reading the document took libxml2 longer than its budget (`XMLStream`).
    case tooSlow(seconds: Int)

    public var description: String { description(of: "the feed", readAs: "a feed") }

    /// The message, naming the document (`the feed`, `the OPML file`) and what it was read as (`a
    /// feed`, `an OPML subscription list`): the OPML reader shares these errors.
    public func description(of document: String, readAs kind: String) -> String {
        switch self {
        case .empty: return "\(document) is empty"
        case .notXML(let line, let message): return "not \(kind): not XML (line \(line): \(message))"
        case .notAFeed(let root) where root.lowercased() == "html": return "not \(kind): an HTML page"
        case .notAFeed(let root): return "not \(kind): the document is <\(root)>, not RSS or Atom"
        case .truncated(let line): return "\(document) ends early (cut off at line \(line))"
        case .illegalCharacter(let line):
            return "not read: \(document) has an illegal character at line \(line) (XML allows no control "
                + "characters but tab, newline and carriage return)"
        case .textTooLong(let line):
            return "not read: a text in \(document) (at line \(line)) is longer than the 10 MB podcli reads in one "
                + "piece"
        case .badEncoding: return "not \(kind): its bytes do not decode in the encoding it declares"
        case .unreadable(let path, let code): return "could not read \(path): \(String(cString: strerror(code)))"
        case .tooManyAttributes(let line, let limit):
            return "not read: an element at line \(line) of \(document) has more than \(limit) attributes"
        case .unreadableEncoding(let name?):
            return "not read: \(document) is in \(name), an encoding podcli does not read (it reads UTF-8, UTF-16 and "
                + "the ASCII-based ones: ISO-8859-*, Windows-125x, Shift_JIS, ...)"
        case .unreadableEncoding(nil):
            return "not read: the XML declaration of \(document) is longer than "
                + "\(StartTagScanner.declarationLimit) characters"
        case .tooSlow(let seconds):
            return "not read: \(document) took more than \(seconds) s to read (built to be slow, or far too large)"
        }
    }
}
