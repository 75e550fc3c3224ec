-- podcli schema 7: the store indexes and counts the episodes it inserts itself, without triggers.
--
-- A statement that fires a trigger runs with a statement journal, and in WAL mode that journal
-- takes a copy of every page the statement changes: schema 6's insert triggers (which did nothing
-- for the merge's inserts but ask whether they should) had each new episode's two inserts copy a
-- dozen 8 KiB pages to a temporary file, 50 KB per episode, ten times what the library itself
-- wrote. The triggers that keep the index in step with updates and deletes stay.
DROP TRIGGER episodes_count_insert;
DROP TRIGGER episodes_search_insert;
DROP TRIGGER episode_texts_search_insert;

-- Every episode has a row of texts, written with it (`Library.merge`, `createEpisode`), so that a
-- description a feed adds later is an update of that row, which its trigger indexes.
INSERT INTO episode_texts (episode_id)
SELECT id FROM episodes WHERE NOT EXISTS (SELECT 1 FROM episode_texts WHERE episode_id = episodes.id);

-- The index merges its segments 16 at a time rather than 4: an import adds a segment for each
-- feed, and merging them four by four rewrote the whole index about once per level, a third of the
-- time the index took to build. A search reads a few more segments.
INSERT INTO episode_search (episode_search, rank) VALUES ('automerge', 16);

-- Indexes a bulk load dropped, to be built again (`Library.loadingInBulk`): by the load when it
-- ends, else by the next opening of the library (the load was killed). Each as it was defined.
CREATE TABLE deferred_indexes (
    name TEXT PRIMARY KEY,
    sql  TEXT NOT NULL
);

-- UUIDs as their 16 bytes (`EpisodeUUID`): 36 bytes of text each, in the row and again in its
-- unique index, were 5% of a library. A text that is not a UUID stays as it is.
UPDATE episodes SET uuid = uuid_bytes(uuid) WHERE typeof(uuid) = 'text';
