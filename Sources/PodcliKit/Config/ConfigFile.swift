import EpisodeStore
import FoundationEssentials
import Strings

/// The configuration file as lines, so `config set` can change one setting and keep the rest,
/// comments included.
public struct ConfigFile {
    public let path: String
    private(set) var lines: [String]

    public init(path: String) {
        self.path = path
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        self.lines = lines
    }

    /// One line as read: a section header, a setting, or nothing (blank or comment).
    private enum Line {
        case blank
        /// nil for a section podcli does not know.
        case section(feed: String?)
        case setting(key: String, value: String)
        case malformed
    }

    private static func read(_ raw: String) -> Line {
        let line = raw.trimmingWhitespace()
        if line.isEmpty || line.hasPrefix("#") { return .blank }
        if line.hasPrefix("[") {
            guard line.hasSuffix("]") else { return .malformed }
            let inner = line.dropFirst().dropLast().trimmingWhitespace()
            guard inner.hasPrefix("feed"), let open = inner.firstIndex(of: "\""), let close = inner.lastIndex(of: "\""),
                open < close, inner[inner.index(inner.startIndex, offsetBy: 4)..<open].trimmingWhitespace().isEmpty
            else { return .section(feed: nil) }
            return .section(feed: String(inner[inner.index(after: open)..<close]))
        }
        guard let equals = line.firstIndex(of: "=") else { return .malformed }
        return .setting(
            key: line[..<equals].trimmingWhitespace(), value: line[line.index(after: equals)...].trimmingWhitespace())
    }

    /// The settings the file gives.
    /// - Throws: `PodcliError.config` naming the file and line of the first mistake.
    public func config() throws(PodcliError) -> Config {
        var config = Config()
        var section: FeedSection?
        for (index, raw) in lines.enumerated() {
            let location = "\(path):\(index + 1)"
            switch Self.read(raw) {
            case .blank:
                continue
            case .malformed:
                throw .config(location: location, problem: "expected 'key = value' or '[feed \"NAME\"]'")
            case .section(let feed):
                guard let feed, !feed.isEmpty else {
                    throw .config(
                        location: location,
                        problem: "unknown section \(raw.trimmingWhitespace()) (sections are [feed \"NAME\"])")
                }
                if let section { config.feedSections.append(section) }
                section = FeedSection(name: feed, location: location)
            case .setting(let key, let value):
                guard let setting = Setting(rawValue: key) else {
                    throw .config(location: location, problem: "unknown key '\(key)'")
                }
                do throws(ConfigValue.Problem) {
                    if section != nil {
                        try setting.check(value, inFeedSection: true)
                        section!.assignments.append((setting, value))
                    } else {
                        try setting.apply(value, to: &config)
                    }
                } catch {
                    throw .config(location: location, problem: "\(key) must be \(error.expected), not '\(value)'")
                }
            }
        }
        if let section { config.feedSections.append(section) }
        return config
    }

    /// The feed a change is for: which section headers name it, and the name a new section gets.
    public struct Target {
        /// The name written in a new `[feed "NAME"]` header.
        public let name: String
        /// Whether a section's NAME means this feed.
        let isNamed: (String) -> Bool

        public init(name: String, isNamed: @escaping (String) -> Bool) {
            self.name = name
            self.isNamed = isNamed
        }
    }

    /// Sets `setting` to `value`, globally (`feed` nil) or for `feed`: the line that gives it now
    /// is changed (the last one, which is the one that counts), else a line is added to the last
    /// section naming the feed (a section is added at the end if none does).
    public mutating func set(_ setting: Setting, to value: String, feed: Target?) {
        let line = "\(setting.rawValue) = \(value)"
        let span = spans(of: feed).last
        if let existing = span.flatMap({ lastLine(of: setting, in: $0) }) {
            lines[existing] = line
        } else if let span {
            var end = span.upperBound
            while end > span.lowerBound, case .blank = Self.read(lines[end - 1]) { end -= 1 }
            lines.insert(line, at: end)
        } else {
            if let last = lines.last, !last.trimmingWhitespace().isEmpty { lines.append("") }
            lines += ["[feed \"\(feed!.name)\"]", line]
        }
    }

    /// Removes every line that gives `setting` globally, or in every section naming `feed`.
    /// - Returns: false when there was none.
    public mutating func unset(_ setting: Setting, feed: Target?) -> Bool {
        let doomed = spans(of: feed).flatMap { span in
            span.filter { index in
                if case .setting(let key, _) = Self.read(lines[index]) { return key == setting.rawValue }
                return false
            }
        }
        for index in doomed.sorted().reversed() { lines.remove(at: index) }
        return !doomed.isEmpty
    }

    /// The lines of the global part (`feed` nil), or of each section naming `feed`, headers
    /// excluded, in order.
    private func spans(of feed: Target?) -> [Range<Int>] {
        // nil: the global part, before any section; .some(name): a section's.
        var current: String?? = .some(nil)
        var start = 0
        var found: [Range<Int>] = []
        func close(at end: Int) {
            switch (current, feed) {
            case (.some(nil), nil): found.append(start..<end)
            case (.some(.some(let name)), .some(let feed)) where feed.isNamed(name): found.append(start..<end)
            default: break
            }
        }
        for (index, raw) in lines.enumerated() {
            guard case .section(let name) = Self.read(raw) else { continue }
            close(at: index)
            current = .some(name)
            start = index + 1
        }
        close(at: lines.count)
        return found
    }

    private func lastLine(of setting: Setting, in span: Range<Int>) -> Int? {
        span.last { index in
            if case .setting(let key, _) = Self.read(lines[index]) { return key == setting.rawValue }
            return false
        }
    }

    /// Writes the file atomically (a temporary file renamed over it), 0600 whatever the umask (a
    /// config others could write would let them choose what podcli downloads and how openly it
    /// keeps it), creating its directory (and the parents missing) 0700.
    public func write() throws {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty { try PrivateDirectory.make(directory) }
        let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        if let code = PrivateFile.write(Array(text.utf8), to: path) {
            throw PodcliError.configNotWritten(path: path, errno: code)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
