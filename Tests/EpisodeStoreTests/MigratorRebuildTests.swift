import Foundation
import Testing

@testable import EpisodeStore

/// Migrations that rebuild a table (SQLite's 12-step recipe), and schema 6, which rebuilds
/// `episodes`: no row that refers to a rebuilt table is lost through ON DELETE CASCADE.
@Suite struct MigratorRebuildTests {
    let directory = TestDirectory()

    /// The real migrations, then `extra` as the next one.
    private func migrator(then extra: String) -> Migrator {
        let files = Migrator().migrations.map { (name: $0.name, sql: $0.sql) }
        let next = String(format: "%03d_test_rebuild.sql", files.count + 1)
        return Migrator(files: files + [(name: next, sql: extra)])
    }

    /// One episode with a file, a position, a place in the queue and a download attempt (and,
    /// as the store writes an episode, its texts and its words in the search index).
    private func libraryWithEveryKindOfRow(_ name: String) throws -> Database {
        let database = try Database(path: directory.path + "/\(name).db")
        try Migrator().migrate(database)
        try database.execute(
            """
            INSERT INTO episodes (id, uuid, title, source_url, created_at, sort_date) VALUES (7, 'u-7', 'Seven', 'http://x/7', 1, 1);
            INSERT INTO episode_texts (episode_id) VALUES (7);
            INSERT INTO episode_search (rowid, title, podcast, description) VALUES (7, 'Seven', NULL, NULL);
            INSERT INTO files (episode_id, relative_path, size, sha256, mode, owner_uid, protection, recorded_at)
                VALUES (7, 'episodes/u-7/seven.mp3', 3, '\(String(repeating: "a", count: 64))', 384, 0, 'private', 1);
            INSERT INTO playback_state (episode_id, position_ms, played, updated_at) VALUES (7, 4200, 0, 1);
            INSERT INTO queue (episode_id, ordinal, added_at) VALUES (7, 1, 1);
            INSERT INTO download_attempts (episode_id, started_at, url) VALUES (7, 1, 'http://x/7');
            """)
        return database
    }

    private func count(_ table: String, in database: Database) throws -> Int {
        Int(try database.rows("SELECT count(*) FROM \(table)")[0].int(0) ?? -1)
    }

    /// `episodes` rebuilt as the recipe does it: a copy made with the same definition, filled,
    /// and renamed into its place. (With legacy_alter_table on, the rename does not check the
    /// views and triggers of other tables that name `episodes`, which name it again once it is back.)
    private func rebuildEpisodes(_ database: Database) throws -> String {
        let definition = try database.rows("SELECT sql FROM sqlite_master WHERE name = 'episodes'")[0].string(0)!
        return """
            \(definition.replacing("CREATE TABLE \"episodes\"", with: "CREATE TABLE episodes_copy")
                .replacing("CREATE TABLE episodes ", with: "CREATE TABLE episodes_copy "));
            INSERT INTO episodes_copy SELECT * FROM episodes;
            DROP TABLE episodes;
            PRAGMA legacy_alter_table = ON;
            ALTER TABLE episodes_copy RENAME TO episodes;
            PRAGMA legacy_alter_table = OFF;
            """
    }

    @Test func aRebuildWithForeignKeysOffKeepsEveryRowThatRefersToTheTable() throws {
        let database = try libraryWithEveryKindOfRow("off")
        try migrator(then: Migrator.foreignKeysOff + "\n" + rebuildEpisodes(database)).migrate(database)
        for table in ["episodes", "files", "playback_state", "queue", "download_attempts"] {
            #expect(try count(table, in: database) == 1, "\(table)")
        }
        #expect(try database.rows("PRAGMA foreign_key_check").isEmpty)
        // Foreign keys are on again: deleting the episode now cascades.
        #expect(try database.rows("PRAGMA foreign_keys")[0].int(0) == 1)
        try database.execute("DELETE FROM episodes")
        #expect(try count("files", in: database) == 0)
    }

    /// What the path prevents: the same rebuild with foreign keys on loses the file, the
    /// position, the queue entry and the attempts.
    @Test func theSameRebuildWithForeignKeysOnWouldDeleteThem() throws {
        let database = try libraryWithEveryKindOfRow("on")
        try migrator(then: rebuildEpisodes(database)).migrate(database)
        #expect(try count("episodes", in: database) == 1)
        for table in ["files", "playback_state", "queue", "download_attempts"] {
            #expect(try count(table, in: database) == 0, "\(table)")
        }
    }

    @Test func aRebuildThatBreaksAForeignKeyIsRolledBackAndForeignKeysAreOnAgain() throws {
        let database = try libraryWithEveryKindOfRow("broken")
        let breaking = Migrator.foreignKeysOff + "\nDELETE FROM episodes;"
        #expect {
            try migrator(then: breaking).migrate(database)
        } throws: { error in
            guard case StoreError.migrationFailed(_, let message) = error else { return false }
            return message.contains("files") && message.contains("episodes")
        }
        #expect(try Migrator().version(of: database) == Migrator().latestVersion)
        #expect(try count("episodes", in: database) == 1)
        #expect(try database.rows("PRAGMA foreign_keys")[0].int(0) == 1)
    }

    /// Schema 6 moves descriptions and the other long texts out of `episodes`, rebuilds it and
    /// builds the search index: every row and every value is still there.
    @Test func schema6KeepsEveryRowAndEveryValue() throws {
        let database = try Database(path: directory.path + "/at4.db")
        try Migrator().migrate(database, upTo: 5)
        try database.execute(
            """
            INSERT INTO feeds (id, url, title, subscribed_at) VALUES (1, 'http://f/1', 'Kraków Weekly', 1);
            INSERT INTO episodes (id, uuid, feed_id, title, source_url, state, protection, validator, created_at,
                downloaded_at, guid, media_key, published_at, sort_date, duration_ms, enclosure_length, enclosure_type,
                link, description, image_url, episode_number, season_number, episode_type, explicit, chapters,
                chapters_url, transcripts, persons, in_feed, is_new, kept, removed_at, last_error, failures, retry_at, author)
            VALUES
                (1, 'u-1', 1, 'One', 'http://x/1', 'downloaded', 'open', '"v1"', 10, 11, 'g1', 'x/1', 12, 12, 1000, 2000,
                 'audio/mpeg', 'http://l/1', '<p>Caf&eacute; talk</p>', 'http://i/1', 1, 2, 'full', 0, '[{"start":0}]',
                 'http://c/1', '[{"url":"t"}]', '[{"name":"p"}]', 1, 1, 1, NULL, NULL, 0, NULL, 'Ada'),
                (2, 'u-2', 1, 'Two', 'http://x/2', 'failed', 'private', NULL, 20, NULL, NULL, 'x/2', NULL, 19, NULL, NULL,
                 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 25, 'boom', 3, 99, NULL),
                (3, 'u-3', NULL, 'Three', 'http://x/3', 'new', 'private', NULL, 30, NULL, NULL, NULL, NULL, 30, NULL,
                 NULL, NULL, NULL, 'plain words', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1, 0, 0, NULL,
                 NULL, 0, NULL, NULL);
            INSERT INTO files (episode_id, relative_path, size, sha256, mode, owner_uid, protection, recorded_at)
                VALUES (1, 'episodes/u-1/one.mp3', 3, '\(String(repeating: "b", count: 64))', 420, 0, 'open', 11);
            INSERT INTO playback_state (episode_id, position_ms, played, updated_at) VALUES (1, 500, 1, 13), (2, 7, 0, 14);
            INSERT INTO queue (episode_id, ordinal, added_at) VALUES (2, 1, 15), (3, 2, 16);
            INSERT INTO download_attempts (episode_id, started_at, url, error) VALUES (2, 21, 'http://x/2', 'boom');
            """)
        let kept = """
            id, uuid, feed_id, title, source_url, state, protection, validator, created_at, downloaded_at, guid,
            media_key, published_at, sort_date, duration_ms, enclosure_length, enclosure_type, link, image_url,
            episode_number, season_number, episode_type, explicit, chapters_url, in_feed, is_new, kept, removed_at,
            last_error, failures, retry_at, author
            """
        let moved = "id, description, chapters, transcripts, persons"
        let others = [
            "SELECT * FROM files", "SELECT * FROM playback_state", "SELECT * FROM queue",
            "SELECT * FROM download_attempts", "SELECT * FROM feeds",
        ]
        let episodesBefore = try database.rows("SELECT \(kept) FROM episodes ORDER BY id").map(\.values)
        let textsBefore = try database.rows("SELECT \(moved) FROM episodes WHERE description IS NOT NULL ORDER BY id")
            .map(\.values)
        let othersBefore = try others.map { try database.rows($0).map(\.values) }

        try Migrator().migrate(database, upTo: 6)
        #expect(try database.rows("SELECT \(kept) FROM episodes ORDER BY id").map(\.values) == episodesBefore)
        #expect(
            try database.rows(
                "SELECT episode_id, description, chapters, transcripts, persons FROM episode_texts ORDER BY episode_id"
            ).map(\.values) == textsBefore)
        for (query, before) in zip(others, othersBefore) {
            let after = try database.rows(query).map(\.values)
            // feeds gained its episode count at the end of each row.
            #expect(after.map { query.hasSuffix("feeds") ? Array($0.dropLast()) : $0 } == before, "\(query)")
        }
        #expect(try database.rows("SELECT episode_count FROM feeds").map { $0.int(0) } == [2])
        #expect(try database.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(try database.rows("PRAGMA integrity_check")[0].string(0) == "ok")
        // The search index was built for what was there.
        func search(_ words: String) throws -> [Int64] {
            try database.rows(
                "SELECT rowid FROM episode_search WHERE episode_search MATCH ? ORDER BY rowid",
                [.text(SearchQuery.match(words)!)]
            ).compactMap { $0.int(0) }
        }
        #expect(try search("cafe") == [1])
        #expect(try search("krakow") == [1, 2])
        #expect(try search("plain") == [3])
        #expect(try search("eacute").isEmpty)
        try LibraryListingTests.expectIndexInStep(database)

        // Schema 7 gives every episode a row of texts (the one without any, an empty one) and
        // changes no text; the index stays as it was.
        try Migrator().migrate(database)
        #expect(
            try database.rows("SELECT episode_id, description FROM episode_texts ORDER BY episode_id").map(\.values)
                == [
                    [.integer(1), .text("<p>Caf&eacute; talk</p>")], [.integer(2), .null],
                    [.integer(3), .text("plain words")],
                ])
        #expect(try database.rows("PRAGMA foreign_key_check").isEmpty)
        #expect(try search("krakow") == [1, 2])
        try LibraryListingTests.expectIndexInStep(database)
    }
}
