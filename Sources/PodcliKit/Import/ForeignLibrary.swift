import EpisodeStore
import Feeds
import Strings

#if canImport(Glibc)
    import Glibc
#endif

/// Another app's library as `podcli import` reads it: the subscriptions with their episodes, as
/// the app last saw them, and what the listener did (played, where they stopped, the queue,
/// favourites, per-feed settings). Read whole before anything is written, so a file that fails
/// half-way changes nothing.
public struct ForeignLibrary {
    public enum App: String, Sendable {
        case antennaPod = "AntennaPod"
        case gPodder = "gPodder"
    }

    public let app: App
    public var feeds: [ImportedFeed] = []
    /// What the file holds that podcli has no place for, counted for the summary.
    public var skipped = Skipped()

    public struct Skipped: Equatable, Sendable {
        /// Episodes with no audio URL (a text post): podcli keeps episodes by their audio.
        public var episodesWithoutAudio = 0
        /// AntennaPod's local-folder feeds, and feeds whose URL is not http or https.
        public var feedsNotFetchable = 0
        /// Feeds AntennaPod keeps without a subscription (episodes opened from a search).
        public var feedsNotSubscribed = 0
        /// Per-feed settings with no podcli equivalent in range (a speed of 4x).
        public var settings = 0

        public init() {}
    }

    public init(app: App) { self.app = app }

    /// Whether the file at `path` is a SQLite database (its first 16 bytes), the only kind read
    /// here; anything else is left to the OPML reader.
    public static func isSQLite(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = header.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 16) }
        return count == 16 && header == Array("SQLite format 3\0".utf8)
    }

    /// Reads the SQLite file at `path`, telling the app by the tables it holds.
    /// - Throws: `ForeignLibraryError`.
    public static func read(contentsOf path: String) throws(ForeignLibraryError) -> ForeignLibrary {
        do {
            let database = try Database(readingOnly: path)
            let file = ForeignTables(database)
            let tables = try file.tables()
            if AntennaPodExport.isExport(tables) { return try AntennaPodExport(file).read() }
            if GPodderDatabase.isDatabase(tables) { return try GPodderDatabase(file).read() }
            throw ForeignLibraryError.unknownDatabase(tables: tables.sorted())
        } catch let error as ForeignLibraryError {
            throw error
        } catch let error as StoreError {
            throw .unreadable(error)
        } catch {
            throw .unreadable(.sqlite(code: 1, message: "\(error)", operation: "reading \(path)"))
        }
    }
}

/// One feed of another app's library.
public struct ImportedFeed {
    /// Where it is fetched from (with the app's HTTP credentials in it, as podcli keeps them).
    public var url: String
    public var metadata: FeedMetadata
    public var episodes: [ImportedEpisode] = []
    /// The app's per-feed settings podcli has: speed, skip-intro, skip-outro, download.
    public var settings: [(setting: Setting, value: String)] = []

    public init(url: String, metadata: FeedMetadata) {
        self.url = url
        self.metadata = metadata
    }
}

/// One episode of an imported feed and what the listener did with it.
public struct ImportedEpisode {
    public var metadata: EpisodeMetadata
    public var state = PlaybackState.start
    /// Unix seconds the app last played it, if it says.
    public var lastPlayed: Int?
    public var starred = false
    /// Its place in the app's queue (smaller first), if queued.
    public var queuePlace: Int64?

    public init(metadata: EpisodeMetadata) { self.metadata = metadata }
}

/// Why another app's file was not imported. Nothing is changed.
public enum ForeignLibraryError: Error, CustomStringConvertible {
    /// A SQLite file of some other app.
    case unknownDatabase(tables: [String])
    /// A table the app always has lacks a column it always has: not the app's file after all.
    case missingColumn(app: String, table: String, column: String)
    /// SQLite could not read it: corrupt, truncated, or not readable.
    case unreadable(StoreError)

    public var description: String {
        switch self {
        case .unknownDatabase(let tables):
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            return "a SQLite database, but not an AntennaPod export or a gPodder Database "
                + (tables.isEmpty ? "(it has no tables)" : "(its tables: \(shown))")
        case .missingColumn(let app, let table, let column):
            return "not an \(app) file podcli can read: table \(table) has no column \(column)"
        case .unreadable(let error):
            if case .sqlite(_, let message, _) = error { return "not a readable SQLite database: \(message)" }
            return "not a readable SQLite database: \(error)"
        }
    }
}

/// Reading another app's tables, whose columns differ from version to version: each query names
/// a column the file lacks as NULL.
struct ForeignTables {
    let database: Database

    init(_ database: Database) { self.database = database }

    func tables() throws(StoreError) -> Set<String> {
        Set(try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.string(0) })
    }

    func columns(of table: String) throws(StoreError) -> Set<String> {
        Set(try database.rows("PRAGMA table_info(\"\(table)\")").compactMap { $0.string(1) })
    }

    /// `table.column` for a SELECT, or NULL when the file has no such column.
    static func column(_ table: String, _ column: String, in columns: Set<String>) -> String {
        columns.contains(column) ? "\(table).\(column)" : "NULL"
    }

    /// - Throws: `ForeignLibraryError.missingColumn` for a column every version has.
    static func require(
        _ required: [String], in columns: Set<String>, of table: String, app: ForeignLibrary.App
    ) throws(ForeignLibraryError) {
        if let missing = required.first(where: { !columns.contains($0) }) {
            throw .missingColumn(app: app.rawValue, table: table, column: missing)
        }
    }
}

extension ImportedFeed {
    /// `url` with `user` and `password` as its user information, percent-encoded (podcli hands a
    /// URL's credentials to libcurl, and shows them as `user:***@`). A URL that has some already
    /// keeps them.
    static func url(_ url: String, user: String?, password: String?) -> String {
        guard let user, !user.isEmpty, let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else {
            return url
        }
        let hostStart = url.index(colon, offsetBy: 3)
        let authority = url[hostStart...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") { return url }
        let userInfo =
            user.addingPercentEscapesToAllButUnreserved()
            + (password.map { ":" + $0.addingPercentEscapesToAllButUnreserved() } ?? "")
        return String(url[..<hostStart]) + userInfo + "@" + url[hostStart...]
    }

    /// Adds `value` for `setting` when podcli takes it in a feed section; else counts it skipped.
    mutating func add(_ setting: Setting, _ value: String, skipped: inout ForeignLibrary.Skipped) {
        do throws(ConfigValue.Problem) {
            try setting.check(value, inFeedSection: true)
            settings.append((setting, value))
        } catch {
            skipped.settings += 1
        }
    }
}

extension EpisodeMetadata {
    /// An imported episode's record, keyed as a feed's item is (`mediaKey` without trackers).
    init(title: String, audioURL: String) {
        self.init(title: StoredText.capped(title), sourceURL: audioURL, mediaKey: TrackingPrefix.strip(audioURL))
    }
}
