-- podcli schema 13: the listening log `podcli stats` adds up, one row per episode per day it was
-- played. The player adds to the day's row in the transaction that saves the position, so a
-- killed player loses no more of it than of the position.

CREATE TABLE listening_log (
    id                 INTEGER PRIMARY KEY,
    -- The local day of the save (YYYY-MM-DD, as `list` shows dates).
    day                TEXT    NOT NULL,
    -- NULL once the episode is deleted: its time stays in the statistics (an episode's number
    -- may be given to a new episode, whose listening must not add to this row).
    episode_id         INTEGER REFERENCES episodes (id) ON DELETE SET NULL,
    -- No reference: a feed's number is never given to another (AUTOINCREMENT), so the time of
    -- a feed unsubscribed from stays its own, under the title it had (`podcast`).
    feed_id            INTEGER,
    podcast            TEXT,
    -- Media time played (what the episode covered, silence skipped included), device time it
    -- took (wall time), media skip silence left out, media skip-intro and skip-outro left out.
    media_ms           INTEGER NOT NULL DEFAULT 0 CHECK (media_ms >= 0),
    wall_ms            INTEGER NOT NULL DEFAULT 0 CHECK (wall_ms >= 0),
    silence_skipped_ms INTEGER NOT NULL DEFAULT 0 CHECK (silence_skipped_ms >= 0),
    intro_outro_ms     INTEGER NOT NULL DEFAULT 0 CHECK (intro_outro_ms >= 0),
    -- Times the episode was played to its end (or marked played while playing) that day.
    finished           INTEGER NOT NULL DEFAULT 0 CHECK (finished >= 0),
    UNIQUE (episode_id, day)
);
CREATE INDEX listening_log_day ON listening_log (day);

-- When the log began: a library made before this schema has no statistics of its earlier plays.
CREATE TABLE listening_log_start (
    started_at INTEGER NOT NULL
);
INSERT INTO listening_log_start (started_at) VALUES (CAST(strftime('%s', 'now') AS INTEGER));
