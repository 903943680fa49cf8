-- Up Migration

-- The game operators' side: where a player was created from, whether they are frozen, the signals
-- of their play per day, and the audit trail of freezes.

-- network: an HMAC (keyed with the cookie secret) of the address a player was created from, the
-- /64 for IPv6; no address is stored. Null for players created before it was recorded.
ALTER TABLE game_users
  ADD COLUMN network text,
  ADD COLUMN frozen_at timestamptz,
  ADD COLUMN frozen_reason text;
CREATE INDEX game_users_network_idx ON game_users (network) WHERE network IS NOT NULL;
CREATE INDEX game_users_frozen_idx ON game_users (country) WHERE frozen_at IS NOT NULL;

-- One row per player and UTC day they tapped or were refused. Times are epoch milliseconds. The
-- batch sizes and the intervals between batches (within a streak: gaps up to the pause) are kept
-- as running mean and sum of squared deviations (Welford), so each batch updates them in place.
CREATE TABLE game_player_days (
  user_id         uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  day             date NOT NULL,
  taps            bigint NOT NULL DEFAULT 0,
  refused         bigint NOT NULL DEFAULT 0,
  batches         integer NOT NULL DEFAULT 0,
  size_mean       double precision NOT NULL DEFAULT 0,
  size_m2         double precision NOT NULL DEFAULT 0,
  gap_n           integer NOT NULL DEFAULT 0,
  gap_mean        double precision NOT NULL DEFAULT 0,
  gap_m2          double precision NOT NULL DEFAULT 0,
  active_ms       bigint NOT NULL DEFAULT 0,
  longest_ms      bigint NOT NULL DEFAULT 0,
  streak_start_ms bigint,
  last_ms         bigint,
  PRIMARY KEY (user_id, day)
);
CREATE INDEX game_player_days_day_idx ON game_player_days (day);

-- The audit trail of freezes and unfreezes: never updated, deleted or emptied.
CREATE TABLE game_player_actions (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  player_id    uuid NOT NULL REFERENCES game_users (id),
  moderator_id uuid NOT NULL REFERENCES lolgram_users (id),
  action       text NOT NULL CHECK (action IN ('freeze', 'unfreeze')),
  reason       text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_player_actions_time_idx ON game_player_actions (created_at DESC);
CREATE INDEX game_player_actions_player_idx ON game_player_actions (player_id, created_at DESC);

CREATE FUNCTION forbid_append_only_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER game_player_actions_append_only
  BEFORE UPDATE OR DELETE ON game_player_actions
  FOR EACH ROW EXECUTE FUNCTION forbid_append_only_change();
CREATE TRIGGER game_player_actions_no_truncate
  BEFORE TRUNCATE ON game_player_actions
  FOR EACH STATEMENT EXECUTE FUNCTION forbid_append_only_change();

-- Down Migration

DROP TABLE game_player_actions;
DROP FUNCTION forbid_append_only_change();
DROP TABLE game_player_days;
ALTER TABLE game_users DROP COLUMN network, DROP COLUMN frozen_at, DROP COLUMN frozen_reason;
