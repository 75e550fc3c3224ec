-- podcli: foreign keys off
-- podcli schema 6: a library of a million episodes costs what a command shows, not what it holds.

-- Long texts in a table of their own, so that listing, counting and sync read short rows: a
-- description averages more than half of an episode row. A row exists only for an episode with
-- one of these texts.
CREATE TABLE episode_texts (
    -- Deferred: a new episode's texts are written first, so that the episode's own insert indexes
    -- it whole (see the search triggers).
    episode_id  INTEGER PRIMARY KEY REFERENCES episodes (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    -- As the feed gives it (often HTML).
    description TEXT,
    -- JSON arrays: Podlove Simple Chapters, podcast:transcript and podcast:person entries.
    chapters    TEXT,
    transcripts TEXT,
    persons     TEXT
);
INSERT INTO episode_texts (episode_id, description, chapters, transcripts, persons)
SELECT id, description, chapters, transcripts, persons FROM episodes
WHERE description IS NOT NULL OR chapters IS NOT NULL OR transcripts IS NOT NULL OR persons IS NOT NULL;

-- `episodes` without them, rebuilt (SQLite's 12-step recipe; the first line of this file has the
-- migrator turn foreign keys off, so dropping the old table deletes no file, position or queue
-- row through ON DELETE CASCADE). DROP COLUMN would leave the rows where they are, a few to a
-- page, and the file as large as before.
CREATE TABLE episodes_rebuilt (
    id               INTEGER PRIMARY KEY,
    uuid             TEXT    NOT NULL UNIQUE,
    -- NULL for an episode fetched by its audio URL.
    feed_id          INTEGER,
    title            TEXT    NOT NULL,
    source_url       TEXT    NOT NULL,
    state            TEXT    NOT NULL DEFAULT 'new'
                     CHECK (state IN ('new', 'queued', 'downloading', 'downloaded', 'failed')),
    protection       TEXT    NOT NULL DEFAULT 'private' CHECK (protection IN ('open', 'private')),
    -- Validator of the partial download, sent back as If-Range when resuming.
    validator        TEXT,
    created_at       INTEGER NOT NULL,
    downloaded_at    INTEGER,
    -- Identity and what the feed says (schema 2).
    guid             TEXT,
    -- The enclosure URL as the episode's identity, without tracking prefixes (schema 2). Nearly
    -- always the end of source_url, so podcli now writes it as how many characters it drops from
    -- the start of that (an integer of a byte or two instead of ~65 bytes of text), else as itself
    -- (rows from before are kept as they were); NULL for an episode fetched by its audio URL. No
    -- declared type, so an integer stays one.
    media_key,
    published_at     INTEGER,
    sort_date        INTEGER,
    duration_ms      INTEGER,
    enclosure_length INTEGER,
    enclosure_type   TEXT,
    link             TEXT,
    image_url        TEXT,
    episode_number   INTEGER,
    season_number    INTEGER,
    episode_type     TEXT,
    explicit         INTEGER,
    chapters_url     TEXT,
    in_feed          INTEGER NOT NULL DEFAULT 1,
    is_new           INTEGER NOT NULL DEFAULT 0,
    -- Sync (schema 4).
    kept             INTEGER NOT NULL DEFAULT 0 CHECK (kept IN (0, 1)),
    removed_at       INTEGER,
    last_error       TEXT,
    failures         INTEGER NOT NULL DEFAULT 0,
    retry_at         INTEGER,
    -- The item's own itunes:author (schema 5).
    author           TEXT
);
INSERT INTO episodes_rebuilt (
    id, uuid, feed_id, title, source_url, state, protection, validator, created_at, downloaded_at, guid,
    media_key, published_at, sort_date, duration_ms, enclosure_length, enclosure_type, link, image_url,
    episode_number, season_number, episode_type, explicit, chapters_url, in_feed, is_new, kept, removed_at,
    last_error, failures, retry_at, author)
SELECT
    id, uuid, feed_id, title, source_url, state, protection, validator, created_at, downloaded_at, guid,
    media_key, published_at, sort_date, duration_ms, enclosure_length, enclosure_type, link, image_url,
    episode_number, season_number, episode_type, explicit, chapters_url, in_feed, is_new, kept, removed_at,
    last_error, failures, retry_at, author
FROM episodes;
DROP TABLE episodes;
ALTER TABLE episodes_rebuilt RENAME TO episodes;
-- `fetch URL` finds the episode by its audio URL: an index of the URLs' last 32 characters (the
-- file's name, its query) finds it as fast as one of the whole URLs, at half the size.
CREATE INDEX episodes_source_url ON episodes (substr(source_url, -32));

-- `list`'s order, newest first and, within a date, as the feed lists them: for the library and
-- for one feed (replacing the index of schema 2, whose ties ran the other way).
CREATE INDEX episodes_newest ON episodes (sort_date DESC, id);
CREATE INDEX episodes_feed ON episodes (feed_id, sort_date DESC, id);
-- The few episodes that `list --new`, `--downloaded`, `--played`, the counts of `feeds` and
-- `sync` look for, each found without reading the others.
CREATE INDEX episodes_new ON episodes (feed_id) WHERE is_new = 1;
CREATE INDEX episodes_downloaded ON episodes (feed_id) WHERE state = 'downloaded';
CREATE INDEX episodes_downloading ON episodes (feed_id) WHERE state = 'downloading';
CREATE INDEX playback_state_played ON playback_state (episode_id) WHERE played = 1;

-- How many episodes each feed has, kept by the triggers below instead of counted by `feeds`.
ALTER TABLE feeds ADD COLUMN episode_count INTEGER NOT NULL DEFAULT 0;
UPDATE feeds SET episode_count = (SELECT count(*) FROM episodes WHERE feed_id = feeds.id);
-- (The merge of a feed document counts the episodes it adds itself: see below.)
CREATE TRIGGER episodes_count_insert AFTER INSERT ON episodes
WHEN new.feed_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM episode_texts WHERE episode_id = new.id) BEGIN
    UPDATE feeds SET episode_count = episode_count + 1 WHERE id = new.feed_id;
END;
CREATE TRIGGER episodes_count_delete AFTER DELETE ON episodes WHEN old.feed_id IS NOT NULL BEGIN
    UPDATE feeds SET episode_count = episode_count - 1 WHERE id = old.feed_id;
END;
CREATE TRIGGER episodes_count_move AFTER UPDATE OF feed_id ON episodes
WHEN old.feed_id IS NOT new.feed_id BEGIN
    UPDATE feeds SET episode_count = episode_count - 1 WHERE id = old.feed_id;
    UPDATE feeds SET episode_count = episode_count + 1 WHERE id = new.feed_id;
END;

-- Search (`list -s`): a full-text index of each episode's title, its podcast's name and the words
-- of its description (search_text(), a function podcli defines on its connections, drops the
-- HTML). Accents are folded (remove_diacritics 2: "Krakow" finds "Kraków"), in any script.
-- The index keeps no copy of the texts (content = ''), so ranking never reads them: with the
-- texts as its content, BM25 read (and stripped) the description of every match. It keeps word
-- positions (detail = full), without which a contentless index ranks every match alike. What it
-- holds for each episode is what this view says.
CREATE VIEW episode_search_source AS
SELECT episodes.id AS episode_id, episodes.title AS title, feeds.title AS podcast,
    search_text(texts.description) AS description
FROM episodes
LEFT JOIN feeds ON feeds.id = episodes.feed_id
LEFT JOIN episode_texts AS texts ON texts.episode_id = episodes.id;

CREATE VIRTUAL TABLE episode_search USING fts5(
    title, podcast, description,
    content = '', tokenize = 'unicode61 remove_diacritics 2'
);
-- Ranked by BM25, a word in the title weighing most, then the podcast's name.
INSERT INTO episode_search (episode_search, rank) VALUES ('rank', 'bm25(8.0, 4.0, 1.0)');
INSERT INTO episode_search (rowid, title, podcast, description)
SELECT episode_id, title, podcast, description FROM episode_search_source ORDER BY episode_id;

-- The triggers keep the index in step, in the transaction of the change itself. An index without
-- content is told what to forget with the values it was given ('delete'), so each trigger hands it
-- the old values as the view gave them, then the new ones. (Single rows are written with
-- VALUES and scalar subqueries: INSERT ... SELECT into the index costs twice as much per row.)
--
-- A new episode is indexed by its insert, unless its texts row was written before it (which
-- `episode_texts` allows by deferring its foreign key): that is how the merge of a feed document
-- says it indexes and counts the episodes it adds itself, in one statement after them. FTS5
-- writes out what it holds in memory at the start of every statement that needs a statement
-- journal, as every INSERT with triggers does, so episodes indexed here one by one would each
-- become a segment of the index of their own.
CREATE TRIGGER episodes_search_insert AFTER INSERT ON episodes
WHEN NOT EXISTS (SELECT 1 FROM episode_texts WHERE episode_id = new.id) BEGIN
    INSERT INTO episode_search (rowid, title, podcast, description)
    VALUES (new.id, new.title, (SELECT title FROM feeds WHERE id = new.feed_id), NULL);
END;
CREATE TRIGGER episodes_search_update AFTER UPDATE OF title, feed_id ON episodes
WHEN old.title IS NOT new.title OR old.feed_id IS NOT new.feed_id BEGIN
    INSERT INTO episode_search (episode_search, rowid, title, podcast, description)
    VALUES (
        'delete', old.id, old.title, (SELECT title FROM feeds WHERE id = old.feed_id),
        (SELECT search_text(description) FROM episode_texts WHERE episode_id = old.id));
    INSERT INTO episode_search (rowid, title, podcast, description)
    VALUES (
        new.id, new.title, (SELECT title FROM feeds WHERE id = new.feed_id),
        (SELECT search_text(description) FROM episode_texts WHERE episode_id = new.id));
END;
-- Before the row goes, while its texts are still there (they go with it).
CREATE TRIGGER episodes_search_delete BEFORE DELETE ON episodes BEGIN
    INSERT INTO episode_search (episode_search, rowid, title, podcast, description)
    VALUES (
        'delete', old.id, old.title, (SELECT title FROM feeds WHERE id = old.feed_id),
        (SELECT search_text(description) FROM episode_texts WHERE episode_id = old.id));
END;

-- Texts added to an episode already indexed (not to one still to be inserted).
CREATE TRIGGER episode_texts_search_insert AFTER INSERT ON episode_texts
WHEN new.description IS NOT NULL AND EXISTS (SELECT 1 FROM episodes WHERE id = new.episode_id) BEGIN
    INSERT INTO episode_search (episode_search, rowid, title, podcast, description)
    SELECT 'delete', episodes.id, episodes.title, feeds.title, NULL
    FROM episodes LEFT JOIN feeds ON feeds.id = episodes.feed_id WHERE episodes.id = new.episode_id;
    INSERT INTO episode_search (rowid, title, podcast, description)
    SELECT episodes.id, episodes.title, feeds.title, search_text(new.description)
    FROM episodes LEFT JOIN feeds ON feeds.id = episodes.feed_id WHERE episodes.id = new.episode_id;
END;
CREATE TRIGGER episode_texts_search_update AFTER UPDATE OF description ON episode_texts
WHEN old.description IS NOT new.description BEGIN
    INSERT INTO episode_search (episode_search, rowid, title, podcast, description)
    SELECT 'delete', episodes.id, episodes.title, feeds.title, search_text(old.description)
    FROM episodes LEFT JOIN feeds ON feeds.id = episodes.feed_id WHERE episodes.id = old.episode_id;
    INSERT INTO episode_search (rowid, title, podcast, description)
    SELECT episodes.id, episodes.title, feeds.title, search_text(new.description)
    FROM episodes LEFT JOIN feeds ON feeds.id = episodes.feed_id WHERE episodes.id = new.episode_id;
END;
-- Texts deleted on their own; when their episode is deleted, its trigger has done the work.
CREATE TRIGGER episode_texts_search_delete AFTER DELETE ON episode_texts
WHEN old.description IS NOT NULL AND EXISTS (SELECT 1 FROM episodes WHERE id = old.episode_id) BEGIN
    INSERT INTO episode_search (episode_search, rowid, title, podcast, description)
    SELECT 'delete', episodes.id, episodes.title, feeds.title, search_text(old.description)
    FROM episodes LEFT JOIN feeds ON feeds.id = episodes.feed_id WHERE episodes.id = old.episode_id;
    INSERT INTO episode_search (rowid, title, podcast, description)
    SELECT episodes.id, episodes.title, feeds.title, NULL
    FROM episodes LEFT JOIN feeds ON feeds.id = episodes.feed_id WHERE episodes.id = old.episode_id;
END;

-- A feed renamed: each of its episodes is indexed again under the new name.
CREATE TRIGGER feeds_search_update AFTER UPDATE OF title ON feeds WHEN old.title IS NOT new.title BEGIN
    INSERT INTO episode_search (episode_search, rowid, title, podcast, description)
    SELECT 'delete', episodes.id, episodes.title, old.title, search_text(texts.description)
    FROM episodes LEFT JOIN episode_texts AS texts ON texts.episode_id = episodes.id
    WHERE episodes.feed_id = old.id;
    INSERT INTO episode_search (rowid, title, podcast, description)
    SELECT episodes.id, episodes.title, new.title, search_text(texts.description)
    FROM episodes LEFT JOIN episode_texts AS texts ON texts.episode_id = episodes.id
    WHERE episodes.feed_id = new.id;
END;
-- A feed deleted while episodes still name it: they no longer have a podcast's name.
CREATE TRIGGER feeds_search_delete AFTER DELETE ON feeds BEGIN
    INSERT INTO episode_search (episode_search, rowid, title, podcast, description)
    SELECT 'delete', episodes.id, episodes.title, old.title, search_text(texts.description)
    FROM episodes LEFT JOIN episode_texts AS texts ON texts.episode_id = episodes.id
    WHERE episodes.feed_id = old.id;
    INSERT INTO episode_search (rowid, title, podcast, description)
    SELECT episodes.id, episodes.title, NULL, search_text(texts.description)
    FROM episodes LEFT JOIN episode_texts AS texts ON texts.episode_id = episodes.id
    WHERE episodes.feed_id = old.id;
END;
