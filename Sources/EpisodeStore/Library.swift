import FoundationEssentials

/// The podcli data directory: the SQLite database and the per-episode directories it describes.
///
/// Layout: `<directory>/podcli.db`, `<directory>/episodes/<uuid>/<file>`. The store is the only
/// writer of both, so it can keep them in step: a file is recorded in the same transaction that
/// renames it into place, and a removal deletes rows and files together.
/// Not `Sendable`: one library per thread, like its `Database`.
public final class Library {
    /// The data directory (absolute).
    public let directory: String
    public let database: Database
    /// What time it is (Unix seconds): every date the library writes (played, downloaded,
    /// removed, ...) is its reading, so a test can say what "now" is.
    public let clock: @Sendable () -> Int

    /// The time of the system's clock, in Unix seconds.
    public static let systemClock: @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }

    /// Opens the library in `directory`, creating it (mode 0700) and upgrading its schema.
    /// - Throws: `StoreError` when the directory or database cannot be set up, or was written by
    ///   a newer podcli.
    public init(directory: String, clock: @escaping @Sendable () -> Int = Library.systemClock) throws(StoreError) {
        let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        try Library.makeDirectories(directory)
        self.directory = directory
        self.clock = clock
        self.database = try Database(path: directory + "/podcli.db")
        try Migrator().migrate(database)
        // Best effort: without them queries are right, only slower, and the next opening tries again.
        try? buildDeferredIndexes()
        sweepTrash()
    }

    public var episodesDirectory: String { directory + "/episodes" }

    /// The directory of one episode's files.
    public func directory(of episode: Episode) -> String { episodesDirectory + "/" + episode.uuid }

    /// The absolute path of a recorded file.
    public func path(of file: EpisodeFile) -> String { directory + "/" + file.relativePath }

    private static func makeDirectories(_ directory: String) throws(StoreError) {
        try FileSystem.makeDirectories(directory, mode: 0o700)
        if !FileSystem.exists(directory + "/episodes") {
            try FileSystem.makeDirectory(directory + "/episodes", mode: 0o755)
        }
    }

    /// Runs `body`, the library's writes of one change, in one IMMEDIATE transaction: committed
    /// when it returns, rolled back when it throws (its error rethrown). Every write of the
    /// library goes through here; inside a transaction already open (a `WriteBatch`'s), `body`
    /// runs in a savepoint of it.
    @discardableResult
    func write<Result>(_ body: (borrowing Writer) throws(StoreError) -> Result) throws(StoreError) -> Result {
        try database.inTransactionGiving { () throws(StoreError) in
            (try body(Writer(database, now: clock())), .commit)
        }
    }

    static let trashPrefix = ".removed-"
}
