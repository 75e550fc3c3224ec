-- podcli schema 18: a transcript's text kept once, deflated, beside an index that keeps none.
--
-- Schema 16 kept each segment's text in its row, the content of its index: the database grew by
-- 1.35 times the transcripts' words. Now the index is contentless and the text is kept per
-- episode, deflated by podcli (zlib, about a third of its size). A contentless FTS5 index forgets
-- a row only when given the row's text again ('delete'), which a trigger cannot inflate: the
-- store does it itself, in the transaction that replaces or removes a transcript or deletes its
-- episode (Library+Transcripts.swift).

-- The segments' texts of an episode, as a JSON array in the order of their places (the segment
-- with rowid episode_id * 2^20 + N is element N), deflated (`deflated()`, which every podcli
-- connection defines). No ON DELETE action: an episode with a transcript cannot be deleted until
-- the store has made its index forget it (the delete would leave words in the index that nothing
-- could remove).
CREATE TABLE transcript_texts (
    episode_id INTEGER PRIMARY KEY REFERENCES episodes (id),
    texts      BLOB NOT NULL
);
INSERT INTO transcript_texts (episode_id, texts)
SELECT episodes.id, deflated((
    -- A range of the table's key, read in its order (setTranscript numbers the places from 0).
    SELECT json_group_array(text) FROM (
        SELECT text FROM transcript_segments
        WHERE rowid BETWEEN episodes.id * 1048576 AND episodes.id * 1048576 + 1048575 ORDER BY rowid)))
FROM episodes
WHERE EXISTS (
    SELECT 1 FROM transcript_segments WHERE rowid BETWEEN episodes.id * 1048576 AND episodes.id * 1048576 + 1048575);

-- Whatever deletes a row now goes through the store (see above).
DROP TRIGGER transcript_segments_search_delete;
DROP TRIGGER episodes_transcript_delete;

-- The same index (no word positions, the same folding) without content: it keeps no copy of the
-- text and reads none back. Filled from the segments before their text goes.
DROP TABLE transcript_search;
CREATE VIRTUAL TABLE transcript_search USING fts5(
    text, content = '', detail = none, columnsize = 0,
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO transcript_search (transcript_search, rank) VALUES ('automerge', 16);
INSERT INTO transcript_search (rowid, text) SELECT rowid, text FROM transcript_segments;

-- A segment keeps what a search hit and `podcli transcript` need besides the text. Copied, not
-- ALTER TABLE ... DROP COLUMN, which rewrites each row in place and frees no page: the pages of
-- the text go to the free list, for what the library writes next.
CREATE TABLE transcript_times (
    start_ms INTEGER NOT NULL,
    end_ms   INTEGER,
    speaker  TEXT
);
INSERT INTO transcript_times (rowid, start_ms, end_ms, speaker)
SELECT rowid, start_ms, end_ms, speaker FROM transcript_segments ORDER BY rowid;
DROP TABLE transcript_segments;
ALTER TABLE transcript_times RENAME TO transcript_segments;
