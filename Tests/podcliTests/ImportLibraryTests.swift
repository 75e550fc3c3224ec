import Foundation
import TestSupport
import Testing

/// `podcli import` of another app's library: AntennaPod's database export (a current layout and
/// one of AntennaPod 1.6's time) and gPodder's Database file, made here with the tables those
/// projects create (AntennaPod's `PodDBAdapter` and `DBUpgrader`, gPodder's `schema.py`), read
/// by the built podcli with no network.
@Suite struct ImportLibraryTests {
    // MARK: - AntennaPod

    @Test(.requires(Self.hasSQLite, "the sqlite3 CLI"))
    func anAntennaPodExportBringsFeedsPlayedPositionsQueueStarsAndSettingsOnceWithoutTouchingTheFile() throws {
        let t = try CLITestCase()
        let folder = t.home.url.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let export = folder.appendingPathComponent("AntennaPodBackup-2026-01-01.db").path
        try Self.sqlite(export, "PRAGMA journal_mode = WAL;\n" + Self.antennaPodCurrent + Self.antennaPodRows)
        // As AntennaPod's export leaves it: one file, in WAL mode, here in a directory podcli cannot write.
        let before = try Data(contentsOf: URL(fileURLWithPath: export))
        #expect(before[18] == 2 && before[19] == 2, "the header's read and write versions: WAL")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }

        let imported = try t.run(["import", export])
        #expect(imported.status == 0, "\(imported)")
        #expect(
            imported.stdout
                == "AntennaPod: imported 2 feeds, 4 episodes (1 played, 1 position), queue of 2, 1 starred, "
                + "4 feed settings; 1 episode without an audio URL, 1 feed not on the web (a local folder, or not "
                + "http or https), 1 feed not subscribed in the app skipped\n")
        #expect(!(imported.stdout + imported.stderr).contains("s3cret"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["AntennaPodBackup-2026-01-01.db"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: export)) == before)

        let listed = try t.run(["list"])
        #expect(listed.stdout.contains("Čas und Zeit — 日本"), "\(listed)")
        #expect(!listed.stdout.contains("Text post"))
        let played = try t.show(try Self.id(of: "Épisode un", in: t))
        #expect(played["played"] as? Bool == true)
        let started = try t.show(try Self.id(of: "Épisode deux", in: t))
        #expect(started["position"] as? Int == 61)
        #expect(started["starred"] as? Bool == true)
        #expect(started["played"] as? Bool == false)
        // When AntennaPod last played each (its last_played_time), not when podcli imported it.
        #expect(
            try Self.query(t.home.path + "/podcli.db", "SELECT group_concat(updated_at) FROM playback_state ORDER BY 1")
                .split(separator: ",").sorted() == ["1700000500", "1700100500"])
        // The queue in AntennaPod's order (its ids), not the episodes'.
        let queue = try t.run(["queue", "ls"]).stdout.split(separator: "\n").dropFirst().prefix(2)
        #expect(queue.first?.contains("Épisode deux") == true && queue.last?.contains("Épisode un") == true, "\(queue)")
        #expect(try t.run(["config", "get", "speed", "--feed", "Čas"]).stdout == "1.5\n")
        #expect(try t.run(["config", "get", "skip-intro", "--feed", "Čas"]).stdout == "30\n")
        #expect(try t.run(["config", "get", "skip-outro", "--feed", "Čas"]).stdout == "15\n")
        #expect(try t.run(["config", "get", "download", "--feed", "Čas"]).stdout == "none\n")
        for command in [["feeds", "--json"], ["list", "--json"], ["export"]] {
            #expect(!(try t.run(command).stdout.contains("s3cret")), "\(command)")
        }

        // The same file again changes nothing, in the library or the config.
        let library = try Self.dump(t)
        let config = try String(contentsOfFile: t.home.path + "/config", encoding: .utf8)
        let again = try t.run(["import", export])
        #expect(again.status == 0, "\(again)")
        #expect(
            again.stdout.hasPrefix(
                "AntennaPod: imported 0 feeds, 0 episodes (0 played, 0 positions), queue of 0, 0 starred;"))
        #expect(try Self.dump(t) == library)
        #expect(try String(contentsOfFile: t.home.path + "/config", encoding: .utf8) == config)
        #expect(try Data(contentsOf: URL(fileURLWithPath: export)) == before)

        // The sync server learns the played mark at AntennaPod's time (a play to the end), not the import's.
        let outbox = "SELECT action, at, position, total FROM outbox WHERE episode_url IS NOT NULL"
        #expect(try Self.query(t.home.path + "/podcli.db", outbox) == "play|1700000500|600|600")
        // Marked unplayed here since: newer than the export, so the file does not mark it played again.
        let first = try Self.id(of: "Épisode un", in: t)
        #expect(try t.run(["mark", "unplayed", first]).status == 0)
        #expect(try t.run(["import", export]).stdout.hasPrefix("AntennaPod: imported 0 feeds, 0 episodes (0 played,"))
        #expect(try t.show(first)["played"] as? Bool == false)
    }

    @Test(.requires(Self.hasSQLite, "the sqlite3 CLI"))
    func anExportOfAntennaPod16sLayoutIsReadToo() throws {
        let t = try CLITestCase()
        let export = t.home.url.appendingPathComponent("old.db").path
        try Self.sqlite(export, Self.antennaPodOld)
        let imported = try t.run(["import", export])
        #expect(imported.status == 0, "\(imported)")
        #expect(
            imported.stdout
                == "AntennaPod: imported 3 feeds, 2 episodes (1 played, 1 position), queue of 1, 1 starred, 2 feed settings\n"
        )
        let started = try t.show(try Self.id(of: "Alte Folge", in: t))
        #expect(started["position"] as? Int == 125)
        #expect(started["starred"] as? Bool == true)
        #expect(try t.run(["queue", "ls"]).stdout.contains("Alte Folge"))
        #expect(try t.show(try Self.id(of: "Gehört", in: t))["played"] as? Bool == true)
        // Two feeds of one title: each setting in a section that names its feed alone.
        let feeds =
            try JSONSerialization.jsonObject(with: try t.run(["feeds", "--json"]).stdoutData) as! [[String: Any]]
        let twins = feeds.filter { $0["title"] as? String == "Zwilling" }.compactMap { $0["id"] as? Int }
        #expect(twins.count == 2)
        for id in twins { #expect(try t.run(["config", "get", "download", "--feed", "\(id)"]).stdout == "none\n") }
    }

    // MARK: - gPodder

    @Test(.requires(Self.hasSQLite, "the sqlite3 CLI"))
    func aGPodderDatabaseBringsFeedsPlayedAndPositionsOnce() throws {
        let t = try CLITestCase()
        let database = t.home.url.appendingPathComponent("Database").path
        try Self.sqlite(database, Self.gPodder)
        let imported = try t.run(["import", database])
        #expect(imported.status == 0, "\(imported)")
        #expect(
            imported.stdout == "gPodder: imported 1 feed, 3 episodes (1 played, 1 position), queue of 0, 0 starred\n")
        #expect(!(imported.stdout + imported.stderr).contains("hunter2"))
        #expect(try t.show(try Self.id(of: "Große Folge", in: t))["position"] as? Int == 300)
        #expect(try t.show(try Self.id(of: "Alt", in: t))["played"] as? Bool == true)
        #expect(try t.show(try Self.id(of: "Neu", in: t))["played"] as? Bool == false)
        let library = try Self.dump(t)
        #expect(
            try t.run(["import", database]).stdout
                == "gPodder: imported 0 feeds, 0 episodes (0 played, 0 positions), queue of 0, 0 starred\n")
        #expect(try Self.dump(t) == library)
    }

    // MARK: - Bad input

    @Test(.requires(Self.hasSQLite, "the sqlite3 CLI"))
    func anotherAppsDatabaseACorruptOrATruncatedFileIsExit65ChangingNothing() throws {
        let t = try CLITestCase()
        let good = t.home.url.appendingPathComponent("good.db").path
        try Self.sqlite(good, Self.antennaPodCurrent + Self.antennaPodRows + String(repeating: Self.padding, count: 40))
        let other = t.home.url.appendingPathComponent("places.sqlite").path
        try Self.sqlite(other, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT);")
        var corrupt = try Data(contentsOf: URL(fileURLWithPath: good))
        corrupt.replaceSubrange(100..<corrupt.count, with: Data(repeating: 0xA5, count: corrupt.count - 100))
        let corruptPath = try t.home.write(corrupt, to: "corrupt.db").path
        let whole = try Data(contentsOf: URL(fileURLWithPath: good))
        let truncatedPath = try t.home.write(whole.prefix(whole.count / 2), to: "truncated.db").path
        _ = try t.run(["feeds"])
        let library = try Self.dump(t)
        for (path, says) in [
            (other, "not an AntennaPod export or a gPodder Database (its tables: moz_places)"),
            (corruptPath, "not a readable SQLite database"), (truncatedPath, "not a readable SQLite database"),
        ] {
            let result = try t.run(["import", path])
            #expect(result.status == 65, "\(path): \(result)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(says), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(try Self.dump(t) == library)
        }
    }

    // MARK: - Files

    static let hasSQLite = FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")

    static func sqlite(_ path: String, _ script: String) throws {
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: [path], environment: [:],
            stdin: Data(script.utf8)
        ).waitUntilExit()
        guard result.status == 0 else { throw TestSupportError("sqlite3 \(path): \(result)") }
    }

    static func query(_ path: String, _ sql: String) throws -> String {
        let result = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), arguments: ["-readonly", path, sql], environment: [:]
        ).waitUntilExit()
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The library's rows, every table, as the sqlite3 CLI dumps them.
    static func dump(_ t: CLITestCase) throws -> String { try query(t.home.path + "/podcli.db", ".dump") }

    static func id(of title: String, in t: CLITestCase) throws -> String {
        let list = try JSONSerialization.jsonObject(with: try t.run(["list", "--json"]).stdoutData) as! [[String: Any]]
        guard let id = list.first(where: { ($0["title"] as? String) == title })?["id"] as? Int else {
            throw TestSupportError("no episode '\(title)' in \(list)")
        }
        return "\(id)"
    }

    /// Rows enough that half the file misses pages the queries read.
    static let padding = """
        INSERT INTO FeedItems (title, pubDate, read, feed, description) VALUES ('p', 0, 0, 99, hex(randomblob(1000)));

        """

    /// `PodDBAdapter`'s tables today (database version 3110000).
    static let antennaPodCurrent = """
        CREATE TABLE Feeds (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, custom_title TEXT, file_url TEXT,
            download_url TEXT, downloaded INTEGER, link TEXT, description TEXT, payment_link TEXT, last_update TEXT,
            language TEXT, author TEXT, image_url TEXT, type TEXT, feed_identifier TEXT,
            auto_download INTEGER DEFAULT 1, username TEXT, password TEXT, include_filter TEXT DEFAULT '',
            exclude_filter TEXT DEFAULT '', minimal_duration_filter INTEGER DEFAULT -1,
            keep_updated INTEGER DEFAULT 1, is_paged INTEGER DEFAULT 0, next_page_link TEXT, hide TEXT,
            sort_order TEXT, last_update_failed INTEGER DEFAULT 0, auto_delete_action INTEGER DEFAULT 0,
            feed_playback_speed REAL DEFAULT -1, feed_skip_silence INTEGER DEFAULT 0,
            feed_volume_adaption INTEGER DEFAULT 0, tags TEXT, feed_skip_intro INTEGER DEFAULT 0,
            feed_skip_ending INTEGER DEFAULT 0, episode_notification INTEGER DEFAULT 0, state INTEGER DEFAULT 0,
            new_episodes_action INTEGER DEFAULT 0);
        CREATE TABLE FeedItems (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, pubDate INTEGER, read INTEGER,
            link TEXT, description TEXT, payment_link TEXT, media INTEGER, feed INTEGER, has_simple_chapters INTEGER,
            item_identifier TEXT, image_url TEXT, auto_download INTEGER, podcastindex_chapter_url TEXT,
            podcastindex_transcript_type TEXT, podcastindex_transcript_url TEXT, social_interact_url TEXT);
        CREATE TABLE FeedMedia (id INTEGER PRIMARY KEY AUTOINCREMENT, duration INTEGER, file_url TEXT,
            download_url TEXT, downloaded INTEGER, position INTEGER, filesize INTEGER, mime_type TEXT,
            playback_completion_date INTEGER, feeditem INTEGER, played_duration INTEGER,
            has_embedded_picture INTEGER, last_played_time INTEGER);
        CREATE TABLE DownloadLog (id INTEGER PRIMARY KEY AUTOINCREMENT, feedfile INTEGER, feedfile_type INTEGER,
            reason INTEGER, successful INTEGER, completion_date INTEGER, reason_detailed TEXT, title TEXT);
        CREATE TABLE Queue(id INTEGER PRIMARY KEY, feeditem INTEGER, feed INTEGER);
        CREATE TABLE SimpleChapters (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, start INTEGER,
            feeditem INTEGER, link TEXT, image_url TEXT);
        CREATE TABLE Favorites(id INTEGER PRIMARY KEY, feeditem INTEGER, feed INTEGER);
        CREATE INDEX FeedItems_feed ON FeedItems (feed);
        CREATE INDEX FeedMedia_feeditem ON FeedMedia (feeditem);

        """

    /// Two subscriptions (one behind HTTP basic auth, with per-feed settings), a local folder and
    /// a feed kept unsubscribed; played, started, new and text-only episodes; a queue whose order
    /// is not the episodes'; a favourite.
    static let antennaPodRows = """
        INSERT INTO Feeds (id, title, download_url, link, language, username, password, feed_playback_speed,
            feed_skip_intro, feed_skip_ending, auto_download, state)
        VALUES (1, 'Čas und Zeit — 日本', 'https://example.org/private/feed.xml', 'https://example.org', 'de',
                'anna', 's3cret:@', 1.5, 30, 15, 0, 0),
            (2, 'Open Show', 'https://example.com/open.rss', NULL, 'en', NULL, NULL, -1, 0, 0, 1, 0),
            (3, 'My folder', 'antennapod_local:content://com.android.externalstorage/tree/x', NULL, NULL, NULL, NULL,
                -1, 0, 0, 1, 0),
            (4, 'Searched once', 'https://example.net/feed', NULL, NULL, NULL, NULL, -1, 0, 0, 1, 1);
        INSERT INTO FeedItems (id, title, pubDate, read, feed, item_identifier, link) VALUES
            (1, 'Épisode un', 1700000000000, 1, 1, 'urn:uuid:1', 'https://example.org/1'),
            (2, 'Épisode deux', 1700100000000, 0, 1, 'urn:uuid:2', NULL),
            (3, 'Text post', 1700200000000, -1, 1, 'urn:uuid:3', NULL),
            (4, 'Open one', 1700300000000, -1, 2, NULL, NULL),
            (5, 'Open two', 1700400000000, 0, 2, 'o2', NULL),
            (6, 'Local file', 1700400000000, 0, 3, 'l1', NULL);
        INSERT INTO FeedMedia (duration, download_url, position, filesize, mime_type, feeditem, last_played_time,
            playback_completion_date)
        VALUES (600000, 'https://example.org/media/1.mp3', 0, 1000, 'audio/mpeg', 1, 1700000500000, 1700000600000),
            (600000, 'https://dts.podtrac.com/redirect.mp3/example.org/media/2.mp3', 61000, 1000, 'audio/mpeg', 2,
                1700100500000, 0),
            (1200000, 'https://example.com/o1.mp3', 0, 0, 'audio/mpeg', 4, 0, 0),
            (1200000, 'https://example.com/o2.m4a', 0, 0, 'audio/mp4', 5, 0, 0),
            (1000, 'content://x/l1.mp3', 0, 0, 'audio/mpeg', 6, 0, 0);
        INSERT INTO Queue VALUES (0, 2, 1), (1, 1, 1);
        INSERT INTO Favorites VALUES (1, 2, 1);

        """

    /// AntennaPod 1.6's tables (database version 1060200): no custom title, image URLs, speed,
    /// skip settings or state; `FeedImages` instead of `image_url`.
    static let antennaPodOld = """
        CREATE TABLE Feeds (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, file_url TEXT, download_url TEXT,
            downloaded INTEGER, link TEXT, description TEXT, payment_link TEXT, last_update TEXT, language TEXT,
            author TEXT, image INTEGER, type TEXT, feed_identifier TEXT, auto_download INTEGER DEFAULT 1,
            flattr_status INTEGER, username TEXT, password TEXT, include_filter TEXT DEFAULT '',
            exclude_filter TEXT DEFAULT '', keep_updated INTEGER DEFAULT 1, is_paged INTEGER DEFAULT 0,
            next_page_link TEXT, hide TEXT, last_update_failed INTEGER DEFAULT 0,
            auto_delete_action INTEGER DEFAULT 0);
        CREATE TABLE FeedItems (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, content_encoded TEXT,
            pubDate INTEGER, read INTEGER, link TEXT, description TEXT, payment_link TEXT, media INTEGER,
            feed INTEGER, has_simple_chapters INTEGER, item_identifier TEXT, flattr_status INTEGER, image INTEGER,
            auto_download INTEGER);
        CREATE TABLE FeedImages (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, file_url TEXT,
            download_url TEXT, downloaded INTEGER);
        CREATE TABLE FeedMedia (id INTEGER PRIMARY KEY AUTOINCREMENT, duration INTEGER, file_url TEXT,
            download_url TEXT, downloaded INTEGER, position INTEGER, filesize INTEGER, mime_type TEXT,
            playback_completion_date INTEGER, feeditem INTEGER, played_duration INTEGER,
            has_embedded_picture INTEGER DEFAULT -1, last_played_time INTEGER DEFAULT 0);
        CREATE TABLE Queue(id INTEGER PRIMARY KEY, feeditem INTEGER, feed INTEGER);
        CREATE TABLE Favorites(id INTEGER PRIMARY KEY, feeditem INTEGER, feed INTEGER);
        INSERT INTO Feeds (id, title, download_url, auto_download) VALUES (1, 'Alte Sendung', 'http://example.de/rss', 1),
            (2, 'Zwilling', 'http://example.de/z1', 0), (3, 'Zwilling', 'http://example.de/z2', 0);
        INSERT INTO FeedItems (id, title, pubDate, read, feed, item_identifier) VALUES
            (1, 'Alte Folge', 1500000000000, 0, 1, 'a1'), (2, 'Gehört', 1400000000000, 1, 1, 'a2');
        INSERT INTO FeedMedia (duration, download_url, position, feeditem, last_played_time) VALUES
            (3600000, 'http://example.de/a1.mp3', 125000, 1, 1500000100000),
            (3600000, 'http://example.de/a2.mp3', 0, 2, 0);
        INSERT INTO Queue VALUES (0, 1, 1);
        INSERT INTO Favorites VALUES (1, 1, 1);

        """

    /// gPodder's `schema.py` tables (version 8), a feed with credentials.
    static let gPodder = """
        CREATE TABLE podcast (id INTEGER PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '',
            url TEXT NOT NULL DEFAULT '', link TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
            cover_url TEXT NULL DEFAULT NULL, auth_username TEXT NULL DEFAULT NULL,
            auth_password TEXT NULL DEFAULT NULL, http_last_modified TEXT NULL DEFAULT NULL,
            http_etag TEXT NULL DEFAULT NULL, auto_archive_episodes INTEGER NOT NULL DEFAULT 0,
            download_folder TEXT NOT NULL DEFAULT '', pause_subscription INTEGER NOT NULL DEFAULT 0,
            section TEXT NOT NULL DEFAULT '', payment_url TEXT NULL DEFAULT NULL,
            download_strategy INTEGER NOT NULL DEFAULT 0, sync_to_mp3_player INTEGER NOT NULL DEFAULT 1,
            cover_thumb BLOB NULL DEFAULT NULL);
        CREATE TABLE episode (id INTEGER PRIMARY KEY NOT NULL, podcast_id INTEGER NOT NULL,
            title TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', url TEXT NOT NULL,
            published INTEGER NOT NULL DEFAULT 0, guid TEXT NOT NULL, link TEXT NOT NULL DEFAULT '',
            file_size INTEGER NOT NULL DEFAULT 0, mime_type TEXT NOT NULL DEFAULT 'application/octet-stream',
            state INTEGER NOT NULL DEFAULT 0, is_new INTEGER NOT NULL DEFAULT 0, archive INTEGER NOT NULL DEFAULT 0,
            download_filename TEXT NULL DEFAULT NULL, total_time INTEGER NOT NULL DEFAULT 0,
            current_position INTEGER NOT NULL DEFAULT 0, current_position_updated INTEGER NOT NULL DEFAULT 0,
            last_playback INTEGER NOT NULL DEFAULT 0, payment_url TEXT NULL DEFAULT NULL,
            description_html TEXT NOT NULL DEFAULT '', episode_art_url TEXT NULL DEFAULT NULL,
            chapters TEXT NULL DEFAULT NULL);
        CREATE TABLE version (version integer);
        INSERT INTO version VALUES (8);
        INSERT INTO podcast (id, title, url, auth_username, auth_password, download_folder)
        VALUES (1, 'Größte Sendung', 'https://example.org/g.xml', 'me', 'hunter2', 'Groesste');
        INSERT INTO episode (podcast_id, title, url, published, guid, is_new, total_time, current_position,
            current_position_updated)
        VALUES (1, 'Große Folge', 'https://example.org/g1.mp3', 1600000000, 'g1', 0, 3600, 300, 1600000500),
            (1, 'Alt', 'https://example.org/g0.mp3', 1500000000, 'g0', 0, 3600, 0, 0),
            (1, 'Neu', 'https://example.org/g2.mp3', 1700000000, 'g2', 1, 3600, 0, 0);

        """
}
