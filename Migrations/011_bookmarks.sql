-- podcli schema 11: bookmarks, moments of an episode a listener marked while playing (`b`,
-- `podcli bookmark [NOTE]`): the position heard, the chapter playing there, a note, and when.
CREATE TABLE bookmarks (
    -- The number `bookmarks` lists and `bookmarks rm` takes. AUTOINCREMENT: never given again
    -- after a removal, so a script's number cannot hit another bookmark.
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    -- A bookmark goes with its episode, unless it was kept through an unsubscribe
    -- (`unsubscribe --keep-bookmarks`) that forgot the episode: then NULL, and the columns
    -- below hold what it was.
    episode_id    INTEGER REFERENCES episodes (id) ON DELETE CASCADE,
    position_ms   INTEGER NOT NULL CHECK (position_ms >= 0),
    chapter       TEXT,
    note          TEXT,
    created_at    INTEGER NOT NULL,
    -- Copied when the feed is unsubscribed with --keep-bookmarks (NULL before): the episode's
    -- title and audio URL (to play it again from), and the feed's title.
    episode_title TEXT,
    source_url    TEXT,
    feed_title    TEXT,
    CHECK (episode_id IS NOT NULL OR (episode_title IS NOT NULL AND source_url IS NOT NULL))
);
CREATE INDEX bookmarks_episode ON bookmarks (episode_id);
