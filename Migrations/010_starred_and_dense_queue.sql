-- podcli schema 10: starred episodes (`podcli star`), and a queue whose ordinals are its positions.

ALTER TABLE episodes ADD COLUMN starred INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1));
-- `list --starred` finds the few starred episodes without reading the others.
CREATE INDEX episodes_starred ON episodes (feed_id) WHERE starred = 1;

-- From now on the queue's ordinals are 1, 2, 3, ...: its positions, which `queue move` and
-- `queue add --next` are given and shift. The gaps removals left (schema 3) are closed here, in
-- the order the queue played.
UPDATE queue SET ordinal = ranked.position
FROM (SELECT episode_id, row_number() OVER (ORDER BY ordinal, episode_id) AS position FROM queue) AS ranked
WHERE ranked.episode_id = queue.episode_id;

-- Whatever takes an episode out of the queue (`queue rm`, `clear`, the episode's removal through
-- ON DELETE CASCADE, a play to its end) moves the ones after it up.
CREATE TRIGGER queue_closes_gaps AFTER DELETE ON queue BEGIN
    UPDATE queue SET ordinal = ordinal - 1 WHERE ordinal > OLD.ordinal;
END;
