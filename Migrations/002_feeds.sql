-- podcli schema 2: subscriptions. A feed owns the episodes read from it; an episode keeps what
-- the feed said about it, and how podcli recognises it again on the next refresh.

CREATE TABLE feeds (
    -- AUTOINCREMENT: a number is never given to another feed after an unsubscribe, so scripts
    -- that name feeds by number cannot hit the wrong one.
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Where the feed is fetched from now: updated on a permanent redirect or itunes:new-feed-url.
    url           TEXT    NOT NULL UNIQUE,
    title         TEXT    NOT NULL,
    link          TEXT,
    description   TEXT,
    author        TEXT,
    image_url     TEXT,
    language      TEXT,
    serial        INTEGER NOT NULL DEFAULT 0 CHECK (serial IN (0, 1)),
    explicit      INTEGER CHECK (explicit IN (0, 1)),
    podcast_guid  TEXT,
    -- Validators sent back on the next refresh (If-None-Match / If-Modified-Since).
    etag          TEXT,
    last_modified TEXT,
    subscribed_at INTEGER NOT NULL,
    -- Last time the feed was fetched successfully (200 or 304), and last time a new document
    -- (a 200) was read.
    checked_at    INTEGER,
    changed_at    INTEGER,
    -- The last refresh's error, cleared by the next success; consecutive failures.
    last_error    TEXT,
    failures      INTEGER NOT NULL DEFAULT 0
);

-- Identity: the guid when the feed gives a usable one, else the enclosure URL with tracking
-- prefixes stripped (media_key), else title and date.
ALTER TABLE episodes ADD COLUMN guid TEXT;
ALTER TABLE episodes ADD COLUMN media_key TEXT;
-- Unix seconds from the feed; NULL when it gave none or an unreadable one. sort_date is that,
-- or else, for a dateless episode, a date set once when podcli first saw it (just below the
-- dated item above it in the feed), so it keeps its place and never stays "newest".
ALTER TABLE episodes ADD COLUMN published_at INTEGER;
ALTER TABLE episodes ADD COLUMN sort_date INTEGER;
ALTER TABLE episodes ADD COLUMN duration_ms INTEGER;
ALTER TABLE episodes ADD COLUMN enclosure_length INTEGER;
ALTER TABLE episodes ADD COLUMN enclosure_type TEXT;
ALTER TABLE episodes ADD COLUMN link TEXT;
-- As the feed gives it (often HTML); rendered to plain text for the terminal when shown.
ALTER TABLE episodes ADD COLUMN description TEXT;
ALTER TABLE episodes ADD COLUMN image_url TEXT;
ALTER TABLE episodes ADD COLUMN episode_number INTEGER;
ALTER TABLE episodes ADD COLUMN season_number INTEGER;
ALTER TABLE episodes ADD COLUMN episode_type TEXT;
ALTER TABLE episodes ADD COLUMN explicit INTEGER;
-- JSON arrays: Podlove Simple Chapters, podcast:transcript and podcast:person entries.
ALTER TABLE episodes ADD COLUMN chapters TEXT;
ALTER TABLE episodes ADD COLUMN chapters_url TEXT;
ALTER TABLE episodes ADD COLUMN transcripts TEXT;
ALTER TABLE episodes ADD COLUMN persons TEXT;
-- 0 once the feed stops listing the episode: its row and files are kept.
ALTER TABLE episodes ADD COLUMN in_feed INTEGER NOT NULL DEFAULT 1;
-- New: appeared in a refresh after subscribing (or the newest at subscription), not yet played.
ALTER TABLE episodes ADD COLUMN is_new INTEGER NOT NULL DEFAULT 0;

UPDATE episodes SET sort_date = created_at;

CREATE INDEX episodes_feed ON episodes (feed_id, sort_date);
