import CSQLite
import Foundation
import Testing

@testable import EpisodeStore

@Suite struct DatabaseTests {
    let directory = TestDirectory()

    @Test func opensInWALModeWithForeignKeysOn() throws {
        let database = try Database(path: directory.path + "/a.db")
        #expect(try database.rows("PRAGMA journal_mode")[0].string(0) == "wal")
        #expect(try database.rows("PRAGMA foreign_keys")[0].int(0) == 1)
    }

    @Test func aThrowingTransactionRollsBackAndTheFirstErrorWins() throws {
        let database = try Database(path: directory.path + "/b.db")
        try database.execute("CREATE TABLE t (x INTEGER UNIQUE)")
        #expect(throws: StoreError.busy("the test")) {
            try database.inTransaction { () throws(StoreError) in
                try database.run("INSERT INTO t VALUES (1)")
                throw .busy("the test")
            }
        }
        #expect(try database.rows("SELECT * FROM t").isEmpty)
        try database.inTransaction { () throws(StoreError) in
            try database.run("INSERT INTO t VALUES (?)", [2])
            return .rollback
        }
        #expect(try database.rows("SELECT * FROM t").isEmpty)
    }

    @Test func aConstraintViolationNamesSQLiteAndTheStatement() throws {
        let database = try Database(path: directory.path + "/c.db")
        try database.execute("CREATE TABLE t (x INTEGER UNIQUE)")
        try database.run("INSERT INTO t VALUES (?)", [1])
        #expect {
            try database.run("INSERT INTO t VALUES (?)", [1])
        } throws: { error in
            "\(error)".contains("UNIQUE constraint failed: t.x") && "\(error)".contains("INSERT INTO t")
        }
    }

    @Test func textRoundTripsUnicodeAndQuotes() throws {
        let database = try Database(path: directory.path + "/d.db")
        try database.execute("CREATE TABLE t (s TEXT)")
        let title = "Épisode ☕ \"quoted\" 'single'"
        try database.run("INSERT INTO t VALUES (?)", [.text(title)])
        #expect(try database.rows("SELECT s FROM t")[0].string(0) == title)
    }

    @Test func aSecondConnectionWaitsForTheWriterInsteadOfFailing() throws {
        let path = directory.path + "/e.db"
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (x)")
        try writer.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
        nonisolated(unsafe) let holder = writer  // handed over whole: this thread does not touch it again
        let waiter = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            try? holder.execute("COMMIT")
        }
        waiter.start()
        let other = try Database(path: path, busyTimeout: 5000)
        try other.run("INSERT INTO t VALUES (2)")
        #expect(try other.rows("SELECT count(*) FROM t")[0].int(0) == 2)
    }

    @Test func openingANewDatabaseWaitsForAnotherConnectionSettingItUp() throws {
        // What another podcli opening the same new library does half-way through its own setup:
        // it holds the write lock of the still-empty file (rollback journal, not yet WAL).
        // `PRAGMA journal_mode = WAL` reads the header under a shared lock, then upgrades to write
        // it, and SQLite answers such an upgrade with SQLITE_BUSY at once, without the busy handler.
        let path = directory.path + "/f.db"
        var holder: OpaquePointer?
        try #require(sqlite3_open(path, &holder) == SQLITE_OK)
        defer { sqlite3_close(holder) }
        try #require(sqlite3_exec(holder, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        nonisolated(unsafe) let handle = holder  // used by the thread only until it signals
        let committed = DispatchSemaphore(value: 0)
        Thread {
            Thread.sleep(forTimeInterval: 0.3)
            sqlite3_exec(handle, "COMMIT", nil, nil, nil)
            committed.signal()
        }.start()
        defer { committed.wait() }
        let started = Date()
        let database = try Database(path: path, busyTimeout: 5000)
        #expect(Date().timeIntervalSince(started) >= 0.25)
        #expect(try database.rows("PRAGMA journal_mode")[0].string(0) == "wal")
    }
}
