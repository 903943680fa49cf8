-- Up Migration

-- The audit also records the referral bonuses an unfreeze brought back (those a freeze cancelled).
ALTER TABLE game_player_actions DROP CONSTRAINT game_player_actions_action_check;
ALTER TABLE game_player_actions
  ADD CONSTRAINT game_player_actions_action_check
  CHECK (action IN ('freeze', 'unfreeze', 'cancel-referral', 'change-country', 'restore-referral'));

-- Down Migration

-- (The audit is append-only: this fails once an unfreeze has restored a bonus.)
ALTER TABLE game_player_actions DROP CONSTRAINT game_player_actions_action_check;
ALTER TABLE game_player_actions
  ADD CONSTRAINT game_player_actions_action_check
  CHECK (action IN ('freeze', 'unfreeze', 'cancel-referral', 'change-country'));
