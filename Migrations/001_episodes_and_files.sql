-- podcli schema 1: episodes, their files, download attempts and playback state.
-- Released migrations are never edited; a change of schema is a new numbered file.

CREATE TABLE episodes (
    id            INTEGER PRIMARY KEY,
    uuid          TEXT    NOT NULL UNIQUE,
    -- Set by the feeds migration; NULL for an episode fetched by its audio URL.
    feed_id       INTEGER,
    title         TEXT    NOT NULL,
    source_url    TEXT    NOT NULL,
    state         TEXT    NOT NULL DEFAULT 'new'
                  CHECK (state IN ('new', 'queued', 'downloading', 'downloaded', 'failed')),
    protection    TEXT    NOT NULL DEFAULT 'private' CHECK (protection IN ('open', 'private')),
    -- Validator of the partial download, sent back as If-Range when resuming.
    validator     TEXT,
    created_at    INTEGER NOT NULL,
    downloaded_at INTEGER
);
CREATE INDEX episodes_source_url ON episodes (source_url);

CREATE TABLE files (
    id            INTEGER PRIMARY KEY,
    episode_id    INTEGER NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
    -- Relative to the data directory: episodes/<uuid>/<name>.
    relative_path TEXT    NOT NULL UNIQUE,
    size          INTEGER NOT NULL CHECK (size >= 0),
    sha256        TEXT    NOT NULL CHECK (length(sha256) = 64),
    mode          INTEGER NOT NULL,
    owner_uid     INTEGER NOT NULL,
    protection    TEXT    NOT NULL CHECK (protection IN ('open', 'private')),
    content_type  TEXT,
    recorded_at   INTEGER NOT NULL,
    verified_at   INTEGER
);
CREATE INDEX files_episode ON files (episode_id);

CREATE TABLE download_attempts (
    id          INTEGER PRIMARY KEY,
    episode_id  INTEGER NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    url         TEXT    NOT NULL,
    http_status INTEGER,
    bytes       INTEGER NOT NULL DEFAULT 0,
    error       TEXT
);
CREATE INDEX download_attempts_episode ON download_attempts (episode_id);

CREATE TABLE playback_state (
    episode_id  INTEGER PRIMARY KEY REFERENCES episodes (id) ON DELETE CASCADE,
    position_ms INTEGER NOT NULL DEFAULT 0 CHECK (position_ms >= 0),
    played      INTEGER NOT NULL DEFAULT 0 CHECK (played IN (0, 1)),
    updated_at  INTEGER NOT NULL
);
