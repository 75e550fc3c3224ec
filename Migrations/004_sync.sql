-- podcli schema 4: what `podcli sync` needs to look after a library unattended.

-- Kept by the user (`podcli keep`): never deleted by retention.
ALTER TABLE episodes ADD COLUMN kept INTEGER NOT NULL DEFAULT 0 CHECK (kept IN (0, 1));
-- When the episode's files were deleted (by retention or `podcli rm`) while its feed still lists
-- it. The row stays, so the next refresh recognises the episode instead of bringing it back as
-- new, and sync never downloads it again (`podcli fetch` of its URL still does).
ALTER TABLE episodes ADD COLUMN removed_at INTEGER;
-- Why the last download failed, shown by `podcli list`; downloads that failed in a row; after
-- repeated failures sync leaves the episode alone until retry_at (Unix seconds), so a broken
-- enclosure does not fail every cron run. Cleared by a successful download.
ALTER TABLE episodes ADD COLUMN last_error TEXT;
ALTER TABLE episodes ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE episodes ADD COLUMN retry_at INTEGER;
-- After repeated failures sync leaves the feed alone until then (Unix seconds); `podcli refresh`
-- still tries it. Cleared by a successful refresh.
ALTER TABLE feeds ADD COLUMN retry_at INTEGER;
