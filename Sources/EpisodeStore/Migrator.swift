/// Brings a database up to the schema of this build, one numbered migration at a time.
///
/// The migrations are the files of `Migrations/` (`001_name.sql`, `002_name.sql`, ...), embedded at
/// build time. The schema version is SQLite's `user_version`: migration N sets it to N in the same
/// IMMEDIATE transaction as its own statements, so a migration is applied whole or not at all,
/// and once: processes opening the library together each check the version under the lock.
///
/// A migration that rebuilds a table (SQLite's 12-step ALTER TABLE recipe,
/// https://www.sqlite.org/lang_altertable.html#otheralter) starts with the line
/// `-- podcli: foreign keys off`. Dropping the old table would otherwise delete, through
/// `ON DELETE CASCADE`, every row that refers to it (files, positions, the queue). The migrator
/// then takes the recipe's steps 1, 10 and 12: foreign keys off before the transaction (SQLite
/// ignores the pragma inside one), `PRAGMA foreign_key_check` before the commit (a violation
/// rolls the step back), and foreign keys on again afterwards, whether the step committed, rolled
/// back or failed. (Where views or triggers of other tables name the rebuilt table, ALTER TABLE's
/// rename checks them against a schema that lacks it: drop and make them again, or rename with
/// `PRAGMA legacy_alter_table = ON`.)
public struct Migrator: Sendable {
    /// One schema step.
    public struct Migration: Sendable {
        public let version: Int
        public let name: String
        let sql: String

        /// The first line says the step rebuilds a table and needs foreign keys off.
        var rebuildsTables: Bool { sql.hasPrefix(Migrator.foreignKeysOff + "\n") }
    }

    /// The first line of a migration that needs foreign keys off (see the type's comment).
    static let foreignKeysOff = "-- podcli: foreign keys off"

    public let migrations: [Migration]

    /// The migrations embedded from `Migrations/`.
    public init() {
        self.init(files: embeddedMigrations)
    }

    /// Migrations from `(file name, SQL)` pairs; the file names must be numbered 1, 2, 3, ...
    init(files: [(name: String, sql: String)]) {
        migrations = files.enumerated().map { offset, file in
            let number = Int(file.name.prefix { $0.isNumber })
            precondition(number == offset + 1, "Migrations/\(file.name) is out of sequence")
            return Migration(version: offset + 1, name: file.name, sql: file.sql)
        }
    }

    /// The schema version this build writes.
    public var latestVersion: Int { migrations.count }

    /// The schema version of `database` (0 for a new, empty file).
    public func version(of database: Database) throws(StoreError) -> Int {
        Int(try database.rows("PRAGMA user_version")[0].int(0) ?? 0)
    }

    /// Applies every migration `database` lacks, up to `target` (default: all of them).
    /// - Throws: `StoreError.newerSchema` for a database from a newer podcli (it is left
    ///   untouched), `StoreError.migrationFailed` when a step fails (that step is rolled back).
    public func migrate(_ database: Database, upTo target: Int? = nil) throws(StoreError) {
        let target = target ?? latestVersion
        let current = try version(of: database)
        guard current <= latestVersion else {
            throw .newerSchema(path: database.path, found: current, supported: latestVersion)
        }
        for migration in migrations where migration.version > current && migration.version <= target {
            do {
                if migration.rebuildsTables { try database.execute("PRAGMA foreign_keys = OFF") }
                defer { if migration.rebuildsTables { try? database.execute("PRAGMA foreign_keys = ON") } }
                try database.inTransaction { () throws(StoreError) in
                    // Another podcli opening the same new library may have applied this step
                    // since the version was read: the IMMEDIATE lock makes this reading final.
                    guard try version(of: database) < migration.version else { return .rollback }
                    try database.execute(migration.sql)
                    if migration.rebuildsTables, let broken = try database.rows("PRAGMA foreign_key_check").first {
                        let (table, parent) = (broken.string(0) ?? "?", broken.string(2) ?? "?")
                        throw StoreError.migrationFailed(
                            name: migration.name, message: "a row of \(table) refers to a missing row of \(parent)")
                    }
                    // PRAGMA takes no bound parameters; the version is our own integer.
                    try database.execute("PRAGMA user_version = \(migration.version)")
                    return .commit
                }
            } catch .sqlite(_, let message, _) {
                throw .migrationFailed(name: migration.name, message: message)
            }
        }
    }
}
