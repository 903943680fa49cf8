-- Up Migration

-- A player may change their country (at most once per COUNTRY_CHANGE_DAYS): when they last did.
ALTER TABLE game_users ADD COLUMN country_changed_at timestamptz;

-- With Redis, a country change moves the player's points between two countries' totals, which then
-- go down as well as up. Each change takes the next number (country_moves); Redis keeps the last
-- one and every flush carries it, and each country's row keeps the number of the figures it holds
-- (moves): figures of a later number replace the row whatever their size, figures taken before a
-- change that moved the row never do.
ALTER TABLE game_redis_generation ADD COLUMN country_moves bigint NOT NULL DEFAULT 0;
ALTER TABLE game_countries ADD COLUMN moves bigint NOT NULL DEFAULT 0;

-- The audit also records a player's own country change, which no moderator made.
ALTER TABLE game_player_actions ALTER COLUMN moderator_id DROP NOT NULL;
ALTER TABLE game_player_actions DROP CONSTRAINT game_player_actions_action_check;
ALTER TABLE game_player_actions
  ADD CONSTRAINT game_player_actions_action_check
  CHECK (action IN ('freeze', 'unfreeze', 'cancel-referral', 'change-country'));
ALTER TABLE game_player_actions
  ADD CONSTRAINT game_player_actions_moderator_check
  CHECK ((action = 'change-country') = (moderator_id IS NULL));

-- Down Migration

ALTER TABLE game_player_actions DROP CONSTRAINT game_player_actions_moderator_check;
ALTER TABLE game_player_actions DROP CONSTRAINT game_player_actions_action_check;
ALTER TABLE game_player_actions
  ADD CONSTRAINT game_player_actions_action_check
  CHECK (action IN ('freeze', 'unfreeze', 'cancel-referral'));
ALTER TABLE game_player_actions ALTER COLUMN moderator_id SET NOT NULL;
ALTER TABLE game_countries DROP COLUMN moves;
ALTER TABLE game_redis_generation DROP COLUMN country_moves;
ALTER TABLE game_users DROP COLUMN country_changed_at;
