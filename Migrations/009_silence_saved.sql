-- podcli schema 9: the time skip silence saved in each episode, in milliseconds of media it left
-- out, over every time the episode was played; the session adds to it when it saves the position.
ALTER TABLE playback_state ADD COLUMN silence_skipped_ms INTEGER NOT NULL DEFAULT 0
    CHECK (silence_skipped_ms >= 0);
