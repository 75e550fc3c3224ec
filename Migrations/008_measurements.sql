-- podcli schema 8: what a downloaded file measured once complete, decoded by the player's own
-- decoders: its exact length (frames at its sample rate: the frames the player plays, exact at
-- any rate) and its EBU R128 integrated loudness and true peak. One row per episode, for the file
-- whose SHA-256 it names: a file that changed since (a new download) is measured again, one that
-- has not is never measured twice. A file that could not be measured keeps its reason in
-- `failure` (and no values), so it is not tried again until it changes.
CREATE TABLE measurements (
    episode_id     INTEGER PRIMARY KEY REFERENCES episodes (id) ON DELETE CASCADE,
    sha256         TEXT    NOT NULL CHECK (length(sha256) = 64),
    frames         INTEGER CHECK (frames >= 0),
    sample_rate    INTEGER CHECK (sample_rate > 0),
    -- NULL for silence only (or under one 0.4 s block): no integrated loudness.
    loudness_lufs  REAL,
    true_peak_dbtp REAL,
    failure        TEXT,
    measured_at    INTEGER NOT NULL,
    CHECK ((failure IS NULL) = (frames IS NOT NULL AND sample_rate IS NOT NULL))
);
