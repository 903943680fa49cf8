-- Up Migration

-- Weekly seasons. A season is a period of SEASON_LENGTH from SEASON_START (numbered from 1); a
-- point belongs to the season in which the game store counted it. Live seasons are boards keyed by
-- season; an ended season is archived once, with its final ranks, and is never written again.

-- Each player's points in a season (taps and bonuses counted while it ran). final_rank is set when
-- the season is archived (null: the player was frozen then, or the season still runs).
CREATE TABLE game_season_scores (
  season     integer NOT NULL,
  user_id    uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  points     bigint NOT NULL DEFAULT 0 CHECK (points >= 0),
  final_rank integer,
  PRIMARY KEY (season, user_id)
);
-- A season's board in order, and rank counts (players with strictly more points).
CREATE INDEX game_season_scores_board_idx ON game_season_scores (season, points DESC, user_id DESC);
-- A player's seasons.
CREATE INDEX game_season_scores_user_idx ON game_season_scores (user_id, season DESC);

-- The archived seasons: their period and final totals.
CREATE TABLE game_seasons (
  id          integer PRIMARY KEY,
  starts_at   timestamptz NOT NULL,
  ends_at     timestamptz NOT NULL,
  players     integer NOT NULL,
  points      bigint NOT NULL,
  archived_at timestamptz NOT NULL DEFAULT now()
);

-- Every country's final points and rank in an archived season (frozen players left out).
CREATE TABLE game_season_countries (
  season  integer NOT NULL REFERENCES game_seasons (id),
  country char(2) NOT NULL,
  points  bigint NOT NULL,
  rank    integer NOT NULL,
  PRIMARY KEY (season, country)
);

-- The next season to archive; null until the first start of a server that knows seasons, which
-- sets it to the season then running (points counted before that belong to no season).
CREATE TABLE game_season_cursor (
  id          boolean PRIMARY KEY DEFAULT true CHECK (id),
  next_season integer
);
INSERT INTO game_season_cursor (next_season) VALUES (NULL);

-- Down Migration

DROP TABLE game_season_cursor;
DROP TABLE game_season_countries;
DROP TABLE game_seasons;
DROP TABLE game_season_scores;
