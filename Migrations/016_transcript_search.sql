-- podcli schema 16: episodes' transcripts, in segments of up to about 30 s, searched by `list -s`.
--
-- A segment's rowid is its episode's id times 2^20 plus its place in the transcript (in order of
-- start), so an episode's segments are one range of the table's own key: they are read, replaced
-- and deleted without a second index, and a search hit names its episode without reading the row.
CREATE TABLE transcript_segments (
    -- Milliseconds from the start of the audio.
    start_ms INTEGER NOT NULL,
    end_ms   INTEGER,
    speaker  TEXT,
    text     TEXT NOT NULL
);

-- The index keeps no copy of the text (the table above is its content) and no word positions
-- (detail = none): it answers which segments have every word, which is all `list -s` asks of it,
-- at a fraction of the size of the text. Accents are folded as in the episodes' index.
CREATE VIRTUAL TABLE transcript_search USING fts5(
    text, content = 'transcript_segments', detail = none, columnsize = 0,
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO transcript_search (transcript_search, rank) VALUES ('automerge', 16);

-- The store indexes the segments it inserts itself, in one statement per transcript (an insert
-- trigger would give each insert a statement journal: see schema 7). Whatever deletes a segment,
-- the index forgets it here, with the text it was given.
CREATE TRIGGER transcript_segments_search_delete AFTER DELETE ON transcript_segments BEGIN
    INSERT INTO transcript_search (transcript_search, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER episodes_transcript_delete AFTER DELETE ON episodes BEGIN
    DELETE FROM transcript_segments WHERE rowid BETWEEN old.id * 1048576 AND old.id * 1048576 + 1048575;
END;
