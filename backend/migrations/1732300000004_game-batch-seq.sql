-- Up Migration

-- The number of the last tap batch counted for each session: a re-sent batch (number not above it)
-- is answered without counting it again, across restarts and in both storage modes.
ALTER TABLE game_sessions ADD COLUMN last_seq bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0);

-- Down Migration

ALTER TABLE game_sessions DROP COLUMN last_seq;
