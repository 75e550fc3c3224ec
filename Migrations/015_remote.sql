-- podcli schema 15: what a gpodder.net-API sync server and this library said to each other last.
-- The outbox (schema 14) is rebuilt to take `new`, the action a mark unplayed sends (SQLite
-- cannot widen a CHECK in place); no table refers to the outbox, so its rows are copied as they
-- are, in their order. remote_state is one row: whose account the cursors belong to, the
-- servers' timestamps the next exchange asks from, and how the last exchange went.

CREATE TABLE outbox_rebuilt (
    -- The order the changes were made in, which is the order they are sent in.
    id          INTEGER PRIMARY KEY,
    action      TEXT    NOT NULL CHECK (action IN ('subscribe', 'unsubscribe', 'play', 'download', 'delete', 'new')),
    podcast_url TEXT    NOT NULL,
    -- The enclosure URL and guid of an episode action; NULL for a subscription change.
    episode_url TEXT CHECK ((episode_url IS NULL) = (action IN ('subscribe', 'unsubscribe'))),
    guid        TEXT,
    -- Unix seconds, from the library's clock (or, for an imported played mark, the other app's
    -- time it was last played).
    at          INTEGER NOT NULL,
    -- A play: where the listening began and ended, and the episode's length, in whole seconds of
    -- media; NULL when not known (a length the feed does not give).
    started     INTEGER CHECK (started >= 0),
    position    INTEGER CHECK (position >= 0),
    total       INTEGER CHECK (total >= 0)
);
INSERT INTO outbox_rebuilt (id, action, podcast_url, episode_url, guid, at, started, position, total)
SELECT id, action, podcast_url, episode_url, guid, at, started, position, total FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_rebuilt RENAME TO outbox;
CREATE INDEX outbox_episode ON outbox (episode_url, podcast_url) WHERE episode_url IS NOT NULL;
CREATE INDEX outbox_podcast ON outbox (podcast_url) WHERE episode_url IS NULL;

CREATE TABLE remote_state (
    id                  INTEGER PRIMARY KEY CHECK (id = 1),
    -- "server user device dialect": the account the cursors below belong to (another resets them).
    account             TEXT,
    -- The server's timestamps (Unix seconds) of the last subscription and episode-action replies
    -- read, which the next exchange asks from; 0 = never.
    subscriptions_since INTEGER NOT NULL DEFAULT 0,
    actions_since       INTEGER NOT NULL DEFAULT 0,
    device_registered   INTEGER NOT NULL DEFAULT 0 CHECK (device_registered IN (0, 1)),
    devices_linked      INTEGER NOT NULL DEFAULT 0 CHECK (devices_linked IN (0, 1)),
    -- When the last exchange completed, and the last one's error (one line, no password).
    last_exchange       INTEGER,
    last_error          TEXT,
    last_error_at       INTEGER
);
