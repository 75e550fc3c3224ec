import CSQLite

/// One SQLite connection, owned and closed by this object.
///
/// Set up so a cron run and an interactive command can share the file: WAL journal, foreign keys
/// on, and a busy timeout instead of failing at once while another process writes.
/// Not `Sendable`: podcli uses one connection on one thread.
public final class Database {
    let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    public let path: String

    /// Opens (creating if needed) the database file at `path`.
    /// - Throws: `StoreError.sqlite` when the file cannot be opened or configured.
    public init(path: String, busyTimeout milliseconds: Int32 = 10_000) throws(StoreError) {
        try Self.makeOwnerOnly(path)
        let connection = try Self.open(
            path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, naming: path)
        self.handle = connection
        self.path = path
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_handler(connection, waitWhileBusy, UnsafeMutableRawPointer(bitPattern: Int(milliseconds)))
        try defineSearchText()
        try defineUUIDBytes()
        try defineDeflated()
        try execute("PRAGMA foreign_keys = ON")
        // For a new file only (an existing one keeps its own): rows of an episode's texts average
        // ~650 bytes, and a 4 KiB page left ~10% of itself unused around six of them.
        try execute("PRAGMA page_size = 8192")
        try useWAL(waitingUpTo: milliseconds)
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// Opens another app's SQLite file (`podcli import`) to read only: `immutable` makes SQLite
    /// take no locks and make no `-wal` or `-shm` file beside it, so a file in a directory podcli
    /// cannot write, or one in WAL mode, is read as it is. (A `-wal` file left beside it is not
    /// read: an export is one file.)
    /// - Throws: `StoreError.sqlite` when the file cannot be opened.
    public init(readingOnly path: String) throws(StoreError) {
        // A URI's path: '%', '?' and '#' would end or change it.
        var escaped = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        let connection = try Self.open(
            "file:\(escaped)?mode=ro&immutable=1", flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
            naming: path)
        self.handle = connection
        self.path = path
        sqlite3_extended_result_codes(connection, 1)
    }

    /// A connection to `name` (a path, or a URI with `SQLITE_OPEN_URI`), `path` in its error.
    private static func open(_ name: String, flags: Int32, naming path: String) throws(StoreError) -> OpaquePointer {
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(name, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error =
                connection.map { Self.error($0, code, "opening \(path)") }
                ?? .sqlite(code: code, message: "out of memory", operation: "opening \(path)")
            sqlite3_close(connection)
            throw error
        }
        return connection
    }

    deinit {
        statements.removeAll()
        sqlite3_close(handle)
    }

    /// The database holds subscriptions and listening history: it is the owner's alone (0600),
    /// whatever the umask and whoever made the directory. SQLite gives the `-wal` and `-shm`
    /// files the mode of the database file, so a new file is created 0600 before SQLite opens
    /// it, and any of the three left more open by an older podcli is closed up.
    ///
    /// An existing file is never opened here: closing a descriptor of a file drops every POSIX
    /// lock this process holds on it, the locks of this process's other SQLite connections too
    /// (https://www.sqlite.org/howtocorrupt.html, 2.2), so it is only looked at and chmodded.
    private static func makeOwnerOnly(_ path: String) throws(StoreError) {
        var info = stat()
        // Not there yet: made without a descriptor (mknod, which fails on anything already at
        // the path, a link too). A descriptor opened and closed here would drop the locks of a
        // connection another thread opened on the file in between.
        if lstat(path, &info) != 0 {
            if mknod(path, S_IFREG | 0o600, 0) == 0 {
                chmod(path, 0o600)  // whatever the umask took away
            } else if errno != EEXIST {
                throw .sqlite(
                    code: SQLITE_CANTOPEN, message: String(cString: strerror(errno)), operation: "creating \(path)")
            }
        }
        for file in [path, path + "-wal", path + "-shm"] where lstat(file, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw .sqlite(
                    code: SQLITE_CANTOPEN, message: "not a regular file (a link?)", operation: "opening \(file)")
            }
            if info.st_mode & 0o077 != 0 { chmod(file, 0o600) }
        }
    }

    /// Switches the file to WAL, so readers go on while a sync writes.
    ///
    /// The first time (a new, empty file) the switch writes the file header: SQLite reads the header
    /// under a shared lock, then upgrades to a write lock. When another connection already holds the
    /// write lock (another podcli opening the same new library), SQLite returns SQLITE_BUSY at once
    /// instead of calling the busy handler, since waiting while holding the shared lock could
    /// deadlock: it does so "hoping that this will induce the first process to release its read lock
    /// and allow the second process to proceed" (https://www.sqlite.org/c3ref/busy_handler.html).
    /// The failed statement has released that lock, so this tries again, within the busy timeout;
    /// once the other connection has committed, the header already says WAL and nothing is written.
    /// - Throws: `StoreError.sqlite` for any other failure, or when the timeout has passed.
    private func useWAL(waitingUpTo milliseconds: Int32) throws(StoreError) {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
        var pause: Int32 = 1
        while true {
            do {
                // journal_mode answers with a row: the mode now in force.
                _ = try rows("PRAGMA journal_mode = WAL")
                return
            } catch .sqlite(let code, _, _) where code == SQLITE_BUSY && ContinuousClock.now < deadline {
                sqlite3_sleep(pause)
                pause = min(pause * 2, 25)
            }
        }
    }

    /// Runs one or more statements that take no parameters and return no rows.
    public func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw Self.error(handle, code, "running `\(sql)`")
        }
    }

    /// Runs one statement with `values` bound; the statement is cached by its SQL text.
    public func run(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) {
        _ = try cachedStatement(sql).rows(values)
    }

    /// Runs one query with `values` bound and returns its rows.
    public func rows(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> [Row] {
        try cachedStatement(sql).rows(values)
    }

    /// Runs one query with `values` bound, handing each row to `body` as SQLite reads it, so a
    /// listing of any length holds one row at a time; `body` returns false to stop early.
    ///
    /// The statement is prepared for this call (not taken from the cache), so `body` may run
    /// other statements, even this same query.
    public func forEachRow(_ sql: String, _ values: [SQLValue] = [], _ body: (Row) -> Bool) throws(StoreError) {
        try Statement(connection: handle, sql: sql).forEachRow(values, body)
    }

    /// The rowid of the last INSERT on this connection.
    public var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// What `body` decides about the transaction it ran in.
    public enum Decision { case commit, rollback }

    /// Runs `body` in an IMMEDIATE transaction (so a writer waits for the lock up front instead of
    /// failing with an un-retryable SQLITE_BUSY half-way), committing or rolling back as it
    /// decides. If `body` throws, the transaction is rolled back and that first error is rethrown.
    ///
    /// Inside a transaction already open (a `WriteBatch`'s), `body` runs in a savepoint of it
    /// instead: what it decides, or its error, keeps or undoes its own writes only.
    public func inTransaction(_ body: () throws(StoreError) -> Decision) throws(StoreError) {
        try inTransactionGiving { () throws(StoreError) in ((), try body()) }
    }

    /// `inTransaction`, for a `body` that also gives a result.
    func inTransactionGiving<Result>(_ body: () throws(StoreError) -> (Result, Decision)) throws(StoreError) -> Result {
        guard !isInTransaction else { return try inSavepoint(body) }
        try execute("BEGIN IMMEDIATE")
        let (result, decision): (Result, Decision)
        do {
            (result, decision) = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        switch decision {
        case .commit:
            do { try execute("COMMIT") } catch {
                rollbackIfNeeded()
                throw error
            }
        case .rollback: rollbackIfNeeded()
        }
        return result
    }

    /// Rolls back unless SQLite already did (it may, after some errors such as SQLITE_FULL).
    private func rollbackIfNeeded() {
        if sqlite3_get_autocommit(handle) == 0 { _ = try? execute("ROLLBACK") }
    }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a savepoint of the open transaction: released when `body` decides to
    /// commit, rolled back to when it decides otherwise or throws (the error rethrown).
    ///
    /// Some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) may make SQLite roll back the whole
    /// transaction: there is then no savepoint to go back to, and the loss is the caller's to see
    /// (`isInTransaction` is false).
    private func inSavepoint<Result>(_ body: () throws(StoreError) -> (Result, Decision)) throws(StoreError) -> Result {
        try execute("SAVEPOINT nested")
        let (result, decision): (Result, Decision)
        do {
            (result, decision) = try body()
        } catch {
            if isInTransaction { _ = try? execute("ROLLBACK TO nested; RELEASE nested") }
            throw error
        }
        try execute(decision == .commit ? "RELEASE nested" : "ROLLBACK TO nested; RELEASE nested")
        return result
    }

    private func cachedStatement(_ sql: String) throws(StoreError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement(connection: handle, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The error for SQLite's `code` on `connection`. A full disk is said in a user's words,
    /// naming the library's directory: SQLITE_FULL, or an I/O error whose errno is ENOSPC or
    /// EDQUOT (extending the `-shm` file fails as SQLITE_IOERR_SHMSIZE, 4874).
    static func error(_ connection: OpaquePointer, _ code: Int32, _ operation: String) -> StoreError {
        let systemError = sqlite3_system_errno(connection)
        if code & 0xFF == SQLITE_FULL
            || (code & 0xFF == SQLITE_IOERR && (systemError == ENOSPC || systemError == EDQUOT))
        {
            let file = sqlite3_db_filename(connection, "main").map { String(cString: $0) } ?? ""
            let directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            return .noSpace(directory: directory.isEmpty ? "." : directory.joined(separator: "/"))
        }
        return .sqlite(code: code, message: String(cString: sqlite3_errmsg(connection)), operation: operation)
    }
}

/// SQLite's busy handler: whether to try a locked database again, after a short sleep.
///
/// `sqlite3_busy_timeout`'s own handler sleeps 1, 2, 5, 10, 15, 20, 25, 25, 50 ms, …: right for a
/// process waiting on another, but a sync's threads each hold the write lock for well under a
/// millisecond, and sleeping 25 ms for it made them queue. This one polls every 0.2 ms for the
/// first 10 ms, then every 2 ms, up to the timeout (carried in the context pointer, in ms).
private let waitWhileBusy: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, count in
    let timeout = Int(bitPattern: context)
    let waited = count <= 50 ? Int(count) / 5 : 10 + (Int(count) - 50) * 2
    guard waited < timeout else { return 0 }
    usleep(count < 50 ? 200 : 2_000)
    return 1
}

#if canImport(Glibc)
    import Glibc
#endif
