import Foundation
import Testing

@testable import EpisodeStore

@Suite struct MigratorTests {
    let directory = TestDirectory()

    private func schema(of database: Database) throws -> [String] {
        try database.rows("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").compactMap {
            $0.string(0)
        }
    }

    @Test func migrationsAreNumberedFromOneAndMatchTheFolder() throws {
        let migrator = Migrator()
        #expect(migrator.latestVersion >= 1)
        #expect(migrator.migrations.map(\.version) == Array(1...migrator.latestVersion))
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Migrations").standardized.path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(migrator.migrations.map(\.name) == files)
    }

    @Test func everyEarlierVersionUpgradesToTheSameSchemaAsANewDatabase() throws {
        let migrator = Migrator()
        let fresh = try Database(path: directory.path + "/fresh.db")
        try migrator.migrate(fresh)
        let expected = try schema(of: fresh)
        for version in 0..<migrator.latestVersion {
            let database = try Database(path: directory.path + "/at-\(version).db")
            try migrator.migrate(database, upTo: version)
            #expect(try migrator.version(of: database) == version)
            try migrator.migrate(database)
            #expect(try migrator.version(of: database) == migrator.latestVersion)
            #expect(try schema(of: database) == expected)
        }
    }

    @Test func migratingTwiceChangesNothing() throws {
        let database = try Database(path: directory.path + "/twice.db")
        try Migrator().migrate(database)
        let before = try schema(of: database)
        try Migrator().migrate(database)
        #expect(try schema(of: database) == before)
    }

    @Test func aDatabaseFromANewerPodcliIsRefusedAndLeftAlone() throws {
        let path = directory.path + "/newer.db"
        let database = try Database(path: path)
        try database.execute("CREATE TABLE future (x); PRAGMA user_version = 99")
        #expect(throws: StoreError.newerSchema(path: path, found: 99, supported: Migrator().latestVersion)) {
            try Migrator().migrate(database)
        }
        #expect(try Migrator().version(of: database) == 99)
        let message = StoreError.newerSchema(path: path, found: 99, supported: 1).description
        #expect(
            message
                == "\(path) was written by a newer podcli (schema 99; this podcli knows up to 1): upgrade podcli, or use another --home"
        )
        try FileManager.default.createDirectory(atPath: directory.path + "/lib", withIntermediateDirectories: true)
        try Database(path: directory.path + "/lib/podcli.db").execute("PRAGMA user_version = 99")
        #expect {
            try Library(directory: directory.path + "/lib")
        } throws: { error in
            if case StoreError.newerSchema(_, 99, _) = error { return true }
            return false
        }
    }

    @Test func aFailingMigrationIsRolledBackWholeAndEarlierOnesStay() throws {
        let database = try Database(path: directory.path + "/failing.db")
        let migrator = Migrator(files: [
            (name: "001_ok.sql", sql: "CREATE TABLE kept (x INTEGER); INSERT INTO kept VALUES (1);"),
            (name: "002_bad.sql", sql: "CREATE TABLE half (x); INSERT INTO nowhere VALUES (1);"),
        ])
        #expect {
            try migrator.migrate(database)
        } throws: { error in
            guard case StoreError.migrationFailed(let name, let message) = error else { return false }
            return name == "002_bad.sql" && message.contains("no such table: nowhere")
        }
        #expect(try migrator.version(of: database) == 1)
        #expect(try database.rows("SELECT x FROM kept").count == 1)
        #expect(try database.rows("SELECT name FROM sqlite_master WHERE name = 'half'").isEmpty)
    }
}
