-- podcli schema 12: the chapters a listener skips (`podcli chapters ID --skip N`), each by its
-- episode and its start in milliseconds: a chapter keeps its start when the chapters are read
-- again (a refresh, another source merged in), where its number may change.
CREATE TABLE chapter_skips (
    episode_id INTEGER NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
    start_ms   INTEGER NOT NULL CHECK (start_ms >= 0),
    PRIMARY KEY (episode_id, start_ms)
) WITHOUT ROWID;
