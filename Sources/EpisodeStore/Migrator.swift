/// Brings a database up to the schema of this build, one numbered migration at a time.
///
/// The migrations are the files of `Migrations/` (`001_name.sql`, `002_name.sql`, ...), embedded at
/// build time. The schema version is SQLite's `user_version`: migration N sets it to N in the same
/// IMMEDIATE transaction as its own statements, so a migration is applied whole or not at all,
/// and once: processes opening the library together each check the version under the lock.
public struct Migrator: Sendable {
    /// One schema step.
    public struct Migration: Sendable {
        public let version: Int
        public let name: String
        let sql: String
    }

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
                try database.inTransaction {
                    // Another podcli opening the same new library may have applied this step
                    // since the version was read: the IMMEDIATE lock makes this reading final.
                    guard try version(of: database) < migration.version else { return .rollback }
                    try database.execute(migration.sql)
                    // PRAGMA takes no bound parameters; the version is our own integer.
                    try database.execute("PRAGMA user_version = \(migration.version)")
                    return .commit
                }
            } catch let error as StoreError {
                if case .sqlite(_, let message, _) = error {
                    throw .migrationFailed(name: migration.name, message: message)
                }
                throw error
            } catch {
                throw .migrationFailed(name: migration.name, message: "\(error)")
            }
        }
    }
}
