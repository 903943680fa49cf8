-- Up Migration

-- The daily streak (docs/GAME.md, Daily streak). Days are UTC days, numbered from 1970-01-01.

-- Each player's taps per day, counted with the taps themselves (the tap statement without Redis,
-- the flush with it). A day counts for the streak when it holds STREAK_DAILY_TAPS taps.
CREATE TABLE game_daily_taps (
  user_id uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  day     integer NOT NULL,
  taps    bigint NOT NULL CHECK (taps >= 0),
  PRIMARY KEY (user_id, day)
);

-- The check-in bonuses claimed: one a player and a day, whatever the retries, tabs and nodes.
CREATE TABLE game_streak_claims (
  user_id    uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  day        integer NOT NULL,
  streak     integer NOT NULL CHECK (streak > 0),
  points     bigint NOT NULL CHECK (points >= 0),
  claimed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, day)
);

-- Down Migration

DROP TABLE game_streak_claims;
DROP TABLE game_daily_taps;
