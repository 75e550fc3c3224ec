-- podcli schema 14: the outbox, each change a gpodder.net-API sync server has yet to learn,
-- written in the transaction of the local change it records and deleted once the server took it.
-- It names feeds and episodes as the server does (the podcast's URL, the episode's enclosure URL
-- and guid), with no reference to their rows: an episode or feed deleted since still has its
-- changes to send. Rows are coalesced as they are written (`Library+Outbox`), so the table holds
-- at most one subscription change per feed URL, and per episode one play and one download or
-- delete.

CREATE TABLE outbox (
    -- The order the changes were made in, which is the order they are sent in.
    id          INTEGER PRIMARY KEY,
    action      TEXT    NOT NULL CHECK (action IN ('subscribe', 'unsubscribe', 'play', 'download', 'delete')),
    podcast_url TEXT    NOT NULL,
    -- The enclosure URL and guid of an episode action; NULL for a subscription change.
    episode_url TEXT CHECK ((episode_url IS NULL) = (action IN ('subscribe', 'unsubscribe'))),
    guid        TEXT,
    -- Unix seconds, from the library's clock.
    at          INTEGER NOT NULL,
    -- A play: where the listening began and ended, and the episode's length, in whole seconds of
    -- media; NULL when not known (a length the feed does not give).
    started     INTEGER CHECK (started >= 0),
    position    INTEGER CHECK (position >= 0),
    total       INTEGER CHECK (total >= 0)
);
CREATE INDEX outbox_episode ON outbox (episode_url, podcast_url) WHERE episode_url IS NOT NULL;
CREATE INDEX outbox_podcast ON outbox (podcast_url) WHERE episode_url IS NULL;
