-- Up Migration

-- The Idempotency-Key of each tap POSTed with one, for an hour after it was counted (the Postgres
-- store's copy; the Redis store keeps its own in Redis): a tap sent again with its key counts once.
CREATE TABLE game_tap_keys (
  session_id uuid NOT NULL REFERENCES game_sessions (id) ON DELETE CASCADE,
  key        text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, key)
);
CREATE INDEX game_tap_keys_created_at_idx ON game_tap_keys (created_at);

-- Down Migration

DROP TABLE game_tap_keys;
