-- podcli schema 3: the queue ("Up Next"), the episodes to play next, in order.

CREATE TABLE queue (
    -- An episode is queued at most once; removing it removes it from the queue.
    episode_id INTEGER PRIMARY KEY REFERENCES episodes (id) ON DELETE CASCADE,
    -- Play order, ascending. A removal leaves a gap and nothing is renumbered: an episode is
    -- appended at the largest ordinal plus one.
    ordinal    INTEGER NOT NULL,
    added_at   INTEGER NOT NULL
);
CREATE INDEX queue_ordinal ON queue (ordinal);
