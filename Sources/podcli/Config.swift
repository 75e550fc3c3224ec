import EpisodeStore
import FoundationEssentials
import Strings

/// podcli's configuration: the file's settings over the defaults.
///
/// The file (`$XDG_CONFIG_HOME/podcli/config`, or `config` under `--home`) holds `key = value`
/// lines, `#` comments and blank lines; settings before any section apply everywhere, and a
/// `[feed "NAME"]` section overrides the per-feed ones for the feed NAME names (its number, URL or
/// a unique part of its title: `FeedReference`). `Setting` lists every key.
struct Config {
    var protection: Protection = .private
    var device: String?
    var skipBack = 15.0
    var skipForward = 30.0
    var sync = SyncSettings()
    /// The per-feed settings' global values.
    var policy = EpisodePolicy()
    var feedSections: [FeedSection] = []

    /// Reads `path`; a missing file is the defaults.
    /// - Throws: `CommandFailure` (usage) naming the file and line of a bad key or value.
    init(path: String) throws(CommandFailure) {
        self = try ConfigFile(path: path).config()
    }

    init() {}

    /// Each feed section with the feed its NAME means among `feeds` (`FeedReference`'s rule, as
    /// everywhere a feed is named), or why it means none.
    func sections(among feeds: [Feed]) -> [(section: FeedSection, feed: Result<Feed, StoreError>)] {
        feedSections.map { section in
            (section, Result { () throws(StoreError) in try FeedReference.match(section.name, in: feeds) })
        }
    }

    /// Every feed's policy: the global one with the settings of the sections naming it over it,
    /// in the file's order.
    func policies(of feeds: [Feed]) -> [Int: EpisodePolicy] {
        var policies = Dictionary(uniqueKeysWithValues: feeds.map { ($0.id, policy) })
        for (section, feed) in sections(among: feeds) {
            guard case .success(let feed) = feed else { continue }
            // Checked when the file was read.
            for assignment in section.assignments {
                try? assignment.setting.apply(assignment.value, to: &policies[feed.id, default: policy])
            }
        }
        return policies
    }

    /// The policy of `feed`, one of `feeds`.
    func policy(for feed: Feed, among feeds: [Feed]) -> EpisodePolicy { policies(of: feeds)[feed.id] ?? policy }
}

/// What `sync` does for every feed at once.
struct SyncSettings: Equatable {
    var jobs = 4
    /// Connections to one host at a time while refreshing feeds: politeness to a host that serves many.
    var hostConnections = 1
    /// The most all recorded episodes may weigh; nil for no budget.
    var diskBudget: Int?
    /// Nothing is downloaded when less than this would be left free.
    var minFree = 512 * 1024 * 1024
    /// Bytes per second for all downloads together; nil for no limit.
    var limitRate: Int?
    /// No download goes on past this size or time: what stops a live stream that never ends.
    var streamMaxSize = 1024 * 1024 * 1024
    var streamMaxTime = 3 * 3600
}

/// What `sync` downloads and deletes for one feed.
struct EpisodePolicy: Equatable {
    enum Download: String, CaseIterable {
        /// New episodes: the newest at subscription, then each one a refresh brings.
        case new
        /// Every episode the feed lists that has not been played or deleted.
        case all
        case none
    }

    var download = Download.new
    /// The newest this many episodes are kept downloaded; older downloads are deleted. nil: all.
    var keep: Int?
    /// Episodes published longer ago than this are not downloaded. nil: any age.
    var maxAgeDays: Int?
    /// Enclosures larger than this are not downloaded. nil: any size.
    var maxSize: Int?
    /// Played episodes are deleted this long after they were played. nil: never.
    var deletePlayedAfterDays: Int?
}

/// A `[feed "NAME"]` section: the settings it gives, in order.
struct FeedSection {
    let name: String
    /// `file:line` of its header.
    let location: String
    var assignments: [(setting: Setting, value: String)] = []
}

/// A key of the configuration file: what it means, its default, how its value is read.
enum Setting: String, CaseIterable {
    case protection, device
    case skipBack = "skip-back"
    case skipForward = "skip-forward"
    case jobs
    case hostConnections = "host-connections"
    case diskBudget = "disk-budget"
    case minFree = "min-free"
    case limitRate = "limit-rate"
    case streamMaxSize = "stream-max-size"
    case streamMaxTime = "stream-max-time"
    case download, keep
    case maxAge = "max-age"
    case maxSize = "max-size"
    case deletePlayedAfter = "delete-played-after"

    /// May be given in a `[feed "NAME"]` section.
    var isPerFeed: Bool {
        switch self {
        case .download, .keep, .maxAge, .maxSize, .deletePlayedAfter: return true
        default: return false
        }
    }

    /// One line for `config list` and the README.
    var summary: String {
        switch self {
        case .protection: return "protection class of new downloads: private (0600) or open (0644)"
        case .device: return "ALSA device 'play' uses"
        case .skipBack: return "seconds the left arrow jumps back while playing"
        case .skipForward: return "seconds the right arrow jumps forward while playing"
        case .jobs: return "feeds refreshed and episodes downloaded at once by sync"
        case .hostConnections: return "feeds refreshed at once from one host"
        case .diskBudget: return "most all downloaded episodes may take (none: no budget)"
        case .minFree: return "free space sync leaves on the disk"
        case .limitRate: return "bytes per second for all of sync's downloads together (none: no limit)"
        case .streamMaxSize: return "no download goes past this size (a live stream never ends)"
        case .streamMaxTime: return "no download goes on longer than this"
        case .download: return "what sync downloads: new, all (unplayed) or none"
        case .keep: return "keep the newest N episodes downloaded, delete older ones (all: keep every one)"
        case .maxAge: return "do not download episodes published more than N days ago (none: any age)"
        case .maxSize: return "do not download episodes larger than this (none: any size)"
        case .deletePlayedAfter: return "delete played episodes N days after they were played (never: keep them)"
        }
    }

    /// The value in effect in `config`, for `feed`'s section when given, written as the file would.
    func value(in config: Config, policy: EpisodePolicy? = nil) -> String {
        let policy = policy ?? config.policy
        switch self {
        case .protection: return config.protection.rawValue
        case .device: return config.device ?? "default"
        case .skipBack: return ConfigValue.number(config.skipBack)
        case .skipForward: return ConfigValue.number(config.skipForward)
        case .jobs: return "\(config.sync.jobs)"
        case .hostConnections: return "\(config.sync.hostConnections)"
        case .diskBudget: return config.sync.diskBudget.map(ConfigValue.size) ?? "none"
        case .minFree: return ConfigValue.size(config.sync.minFree)
        case .limitRate: return config.sync.limitRate.map(ConfigValue.size) ?? "none"
        case .streamMaxSize: return ConfigValue.size(config.sync.streamMaxSize)
        case .streamMaxTime: return ConfigValue.duration(config.sync.streamMaxTime)
        case .download: return policy.download.rawValue
        case .keep: return policy.keep.map { "\($0)" } ?? "all"
        case .maxAge: return policy.maxAgeDays.map { "\($0)" } ?? "none"
        case .maxSize: return policy.maxSize.map(ConfigValue.size) ?? "none"
        case .deletePlayedAfter: return policy.deletePlayedAfterDays.map { "\($0)" } ?? "never"
        }
    }

    /// Sets this global setting in `config` from `value`.
    /// - Throws: what is wrong with the value, for a message that also names where it was given.
    func apply(_ value: String, to config: inout Config) throws(ConfigValue.Problem) {
        switch self {
        case .protection:
            guard let protection = Protection(rawValue: value) else { throw .init("private or open") }
            config.protection = protection
        case .device:
            guard !value.isEmpty else { throw .init("a device name") }
            config.device = value
        case .skipBack, .skipForward:
            guard let seconds = Double(value), seconds >= 1, seconds <= 3600 else {
                throw .init("seconds between 1 and 3600")
            }
            if self == .skipBack { config.skipBack = seconds } else { config.skipForward = seconds }
        case .jobs: config.sync.jobs = try ConfigValue.count(value, in: 1...32)
        case .hostConnections: config.sync.hostConnections = try ConfigValue.count(value, in: 1...16)
        case .diskBudget: config.sync.diskBudget = try ConfigValue.optionalSize(value, off: "none")
        case .minFree: config.sync.minFree = try ConfigValue.size(value)
        case .limitRate:
            config.sync.limitRate = try ConfigValue.optionalSize(value, off: "none")
            if let rate = config.sync.limitRate, rate < 1024 { throw .init("a rate of at least 1K (bytes per second)") }
        case .streamMaxSize: config.sync.streamMaxSize = try ConfigValue.size(value)
        case .streamMaxTime: config.sync.streamMaxTime = try ConfigValue.duration(value)
        case .download, .keep, .maxAge, .maxSize, .deletePlayedAfter: try apply(value, to: &config.policy)
        }
    }

    /// Checks `value` for this setting, given globally or in a feed section.
    func check(_ value: String, inFeedSection: Bool) throws(ConfigValue.Problem) {
        if inFeedSection {
            var policy = EpisodePolicy()
            try apply(value, to: &policy)
        } else {
            var config = Config()
            try apply(value, to: &config)
        }
    }

    /// Sets this per-feed setting in `policy` from `value`.
    func apply(_ value: String, to policy: inout EpisodePolicy) throws(ConfigValue.Problem) {
        switch self {
        case .download:
            guard let download = EpisodePolicy.Download(rawValue: value) else { throw .init("new, all or none") }
            policy.download = download
        case .keep:
            policy.keep = value == "all" ? nil : try ConfigValue.count(value, in: 1...100_000, or: "all")
        case .maxAge:
            policy.maxAgeDays = value == "none" ? nil : try ConfigValue.count(value, in: 1...100_000, or: "none")
        case .maxSize: policy.maxSize = try ConfigValue.optionalSize(value, off: "none")
        case .deletePlayedAfter:
            policy.deletePlayedAfterDays =
                value == "never" ? nil : try ConfigValue.count(value, in: 0...100_000, or: "never")
        default:
            throw .init("a setting for every feed, not one feed (put it before any [feed] section)")
        }
    }
}

/// How values are written: counts, sizes (`500M`, `2G`: binary multiples), durations (`90m`, `3h`).
enum ConfigValue {
    /// What a value should have been.
    struct Problem: Error {
        let expected: String
        init(_ expected: String) { self.expected = expected }
    }

    static func count(_ text: String, in range: ClosedRange<Int>, or word: String? = nil) throws(Problem) -> Int {
        guard let count = Int(text), range.contains(count) else {
            throw Problem(
                "a whole number from \(range.lowerBound) to \(range.upperBound)" + (word.map { " or \($0)" } ?? ""))
        }
        return count
    }

    static let units: [(suffix: Character, bytes: Int)] = [
        ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("T", 1 << 40),
    ]

    /// Bytes from `123`, `700K`, `1.5G`, `2GiB`, `2GB` (all binary, as curl and du read them).
    static func size(_ text: String) throws(Problem) -> Int {
        var digits = Substring(text.uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits = digits.dropLast(suffix.count) }
        var multiplier = 1
        if let last = digits.last, let unit = units.first(where: { $0.suffix == last }) {
            multiplier = unit.bytes
            digits = digits.dropLast()
        }
        guard let number = Double(digits), number >= 0, number * Double(multiplier) < 1e18 else {
            throw Problem("a size such as 500M or 2G")
        }
        return Int((number * Double(multiplier)).rounded())
    }

    static func optionalSize(_ text: String, off: String) throws(Problem) -> Int? {
        if text == off { return nil }
        do { return try size(text) } catch { throw Problem("a size such as 500M or 2G, or \(off)") }
    }

    /// Seconds from `45`, `45s`, `90m`, `3h`, `1d`.
    static func duration(_ text: String) throws(Problem) -> Int {
        let multipliers: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(text.lowercased())
        var multiplier = 1
        if let last = digits.last, let unit = multipliers[last] {
            multiplier = unit
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number > 0, number < 10_000_000 / multiplier + 1 else {
            throw Problem("a duration such as 90m or 3h")
        }
        return number * multiplier
    }

    /// `size` written back the shortest exact way.
    static func size(_ bytes: Int) -> String {
        for unit in units.reversed() where bytes >= unit.bytes && bytes % unit.bytes == 0 {
            return "\(bytes / unit.bytes)\(unit.suffix)"
        }
        return "\(bytes)"
    }

    static func duration(_ seconds: Int) -> String {
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }
}

/// The configuration file as lines, so `config set` can change one setting and keep the rest,
/// comments included.
struct ConfigFile {
    let path: String
    private(set) var lines: [String]

    init(path: String) {
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
    /// - Throws: `CommandFailure` (usage) naming the file and line of the first mistake.
    func config() throws(CommandFailure) -> Config {
        var config = Config()
        var section: FeedSection?
        for (index, raw) in lines.enumerated() {
            let location = "\(path):\(index + 1)"
            switch Self.read(raw) {
            case .blank:
                continue
            case .malformed:
                throw CommandFailure(
                    description: "\(location): expected 'key = value' or '[feed \"NAME\"]'", exitCode: .usage)
            case .section(let feed):
                guard let feed, !feed.isEmpty else {
                    throw CommandFailure(
                        description: "\(location): unknown section \(raw.trimmingWhitespace()) (sections are "
                            + "[feed \"NAME\"])", exitCode: .usage)
                }
                if let section { config.feedSections.append(section) }
                section = FeedSection(name: feed, location: location)
            case .setting(let key, let value):
                guard let setting = Setting(rawValue: key) else {
                    throw CommandFailure(description: "\(location): unknown key '\(key)'", exitCode: .usage)
                }
                do throws(ConfigValue.Problem) {
                    if section != nil {
                        try setting.check(value, inFeedSection: true)
                        section!.assignments.append((setting, value))
                    } else {
                        try setting.apply(value, to: &config)
                    }
                } catch {
                    throw CommandFailure(
                        description: "\(location): \(key) must be \(error.expected), not '\(value)'", exitCode: .usage)
                }
            }
        }
        if let section { config.feedSections.append(section) }
        return config
    }

    /// The feed a change is for: which section headers name it, and the name a new section gets.
    struct Target {
        /// The name written in a new `[feed "NAME"]` header.
        let name: String
        /// Whether a section's NAME means this feed.
        let isNamed: (String) -> Bool
    }

    /// Sets `setting` to `value`, globally (`feed` nil) or for `feed`: the line that gives it now
    /// is changed (the last one, which is the one that counts), else a line is added to the last
    /// section naming the feed (a section is added at the end if none does).
    mutating func set(_ setting: Setting, to value: String, feed: Target?) {
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
    mutating func unset(_ setting: Setting, feed: Target?) -> Bool {
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

    /// Writes the file atomically (a temporary file renamed over it), creating its directory.
    func write() throws {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)),
            rename(temporary, path) == 0
        else {
            throw CommandFailure(
                description: "could not write \(path): \(String(cString: strerror(errno)))", exitCode: .storage)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
