-- podcli schema 17: which `podcast:transcript` offer an episode's kept transcript came from, so
-- that a feed offering another one (another URL, a more structured type) has it fetched again by
-- the next `sync` or `download`, and an unchanged offer is never fetched twice.
--
-- A row is written when a downloaded episode's transcript is fetched (or found not offered): the
-- offer tried, NULL when the feed offered none podcli reads. Whatever changes the episode's
-- offers afterwards marks the row, so a sync finds the few episodes to look at again through the
-- partial index, without reading every episode's offers or any episode's directory.
CREATE TABLE transcript_sources (
    episode_id     INTEGER PRIMARY KEY,
    offer_url      TEXT,
    offer_type     TEXT,
    offers_changed INTEGER NOT NULL DEFAULT 0 CHECK (offers_changed IN (0, 1))
);
CREATE INDEX transcript_sources_changed ON transcript_sources (episode_id) WHERE offers_changed = 1;

-- Episodes downloaded before this schema: what their transcript came from is not known, so a
-- change of their offers fetches the preferred one again.
INSERT INTO transcript_sources (episode_id) SELECT id FROM episodes WHERE state = 'downloaded';

CREATE TRIGGER episode_texts_transcripts_changed AFTER UPDATE OF transcripts ON episode_texts
WHEN old.transcripts IS NOT new.transcripts BEGIN
    UPDATE transcript_sources SET offers_changed = 1 WHERE episode_id = new.episode_id;
END;
CREATE TRIGGER episodes_transcript_source_delete AFTER DELETE ON episodes BEGIN
    DELETE FROM transcript_sources WHERE episode_id = old.id;
END;
