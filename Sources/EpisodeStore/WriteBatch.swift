#if canImport(Glibc)
    import Glibc
#endif

/// Many writes committed in a few transactions rather than one each, for a command that records a
/// lot at once (`podcli import`).
///
/// A transaction per feed document made a cold import of a large library three times as slow as
/// before schema 6: a commit writes every page it changed to the WAL (and the checkpoint copies it
/// back), and `list`'s date index spreads each feed's episodes over the whole index (at a million
/// episodes, a 1,000-episode feed changed ~900 of its ~4,000 leaves). Feeds written in one
/// transaction share those pages.
///
/// Each of the library's own transactions in a write runs as a savepoint of the batch's
/// (`Database.inTransaction` nests), so one that fails undoes only itself. (A savepoint of the
/// batch's own around each write would copy every page the feeds before it changed once more, to
/// its journal, for nothing: the library's writes are each one transaction.) The transaction is committed once it has been open
/// `Limits.duration` or holds `Limits.writes` writes, with a pause after it in which another podcli
/// waiting for the write lock (a player saving its position, a sync) takes it; and by `commit()`,
/// which the caller calls before it waits for anything, so a batch is never held across the
/// network. Made and ended by `run`; not `Sendable`, like its `Library`.
public final class WriteBatch {
    /// When the transaction is committed.
    public struct Limits: Sendable {
        /// How long it may stay open: how long another writer may wait for it.
        public var duration: Duration = .milliseconds(500)
        /// How many writes it may hold. 1: no batch transaction at all, each write is the
        /// library's own transactions (what `import` does: at a million episodes, journalling
        /// the pages earlier feeds changed again for each feed's savepoint cost more than the
        /// shared pages saved; see bench/README.md).
        public var writes = 200
        /// Left after a commit that the limits called for, before the next write takes the lock
        /// again. podcli's busy handler tries every 0.2-2 ms (`Database`): a waiter gets in.
        public var pause: Duration = .milliseconds(5)

        public init() {}
    }

    /// This connection's settings while a batch runs.
    ///
    /// The cache holds a batch's changed pages (with fewer, they would be written out half-way
    /// and again at the commit): the date index alone is ~18 MB at a million episodes, and a batch
    /// changes most of its leaves. Checkpoints come every 32 MB of WAL instead of every 4 MB, so
    /// a page that several batches change is copied back into the database once. (Savepoints keep
    /// their journal in a temporary file: in memory, SQLite walks the whole journal to truncate
    /// it at each release of a nested savepoint, a sixth of an import's time.)
    static let settings = [("cache_size", "-32768"), ("wal_autocheckpoint", "8192")]

    private let database: Database
    private let limits: Limits
    private var began: ContinuousClock.Instant?
    private var writes = 0
    /// What to tell once the open transaction is committed.
    private var onCommit: [() -> Void] = []

    private init(_ database: Database, limits: Limits) {
        self.database = database
        self.limits = limits
    }

    /// Runs `body` with a batch on `library`'s connection, then commits what is left, also when
    /// `body` throws (what was written before a failure is kept); the connection's settings are
    /// then put back.
    /// - Throws: what `body` throws, else `StoreError` when the last commit fails.
    public static func run<Result>(
        _ library: Library, limits: Limits = Limits(), _ body: (WriteBatch) throws -> Result
    ) throws -> Result {
        let database = library.database
        precondition(!database.isInTransaction, "a batch is a transaction of its own")
        var saved: [(String, String)] = []
        defer { for (name, value) in saved { try? database.execute("PRAGMA \(name) = \(value)") } }
        for (name, value) in settings {
            saved.append((name, try database.rows("PRAGMA \(name)").first?.string(0) ?? value))
            try database.execute("PRAGMA \(name) = \(value)")
        }
        let batch = WriteBatch(database, limits: limits)
        let result: Result
        do {
            result = try body(batch)
        } catch {
            try? batch.commit()
            throw error
        }
        try batch.commit()
        return result
    }

    /// Runs `body`, the library's writes of one thing (a feed), in the batch's transaction
    /// (beginning one if none is open); `committed` gets its result once the transaction that
    /// holds it is committed (never, if that fails).
    /// - Throws: what `body` throws; each of its library transactions that failed is undone. When SQLite rolled back the whole
    ///   transaction (a full disk), the batch's earlier writes are gone too, untold: the error is
    ///   then a failure of the library (`StoreError`), which ends the caller's work.
    public func write<Result>(
        _ body: () throws -> Result, committed: @escaping (Result) -> Void = { _ in }
    ) throws -> Result {
        if limits.writes <= 1 {
            let result = try body()
            committed(result)
            return result
        }
        if began == nil {
            try database.execute("BEGIN IMMEDIATE")
            began = .now
        }
        let result: Result
        do {
            result = try body()
        } catch {
            if !database.isInTransaction { abandon() }
            throw error
        }
        onCommit.append { committed(result) }
        writes += 1
        if let began, writes >= limits.writes || ContinuousClock.now - began >= limits.duration {
            try commit()
            Self.sleep(limits.pause)
        }
        return result
    }

    /// Commits the open transaction, if any: before the caller waits, and at the end.
    /// - Throws: `StoreError` when the commit fails; the batch's writes are then lost.
    public func commit() throws(StoreError) {
        guard began != nil else { return }
        do {
            try database.execute("COMMIT")
        } catch {
            if database.isInTransaction { _ = try? database.execute("ROLLBACK") }
            abandon()
            throw error
        }
        let told = onCommit
        abandon()
        for tell in told { tell() }
    }

    private func abandon() {
        began = nil
        writes = 0
        onCommit = []
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
}
