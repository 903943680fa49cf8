-- Up Migration

-- The game player each Telegram account opens: one per Telegram user id, and a player opened by
-- at most one account. A launch from Telegram makes the player on first use; a web player's link
-- code moves the account to that player instead, once (linked_at).
CREATE TABLE game_telegram_accounts (
  telegram_id bigint PRIMARY KEY,
  user_id     uuid NOT NULL UNIQUE REFERENCES game_users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  linked_at   timestamptz
);

-- Short-lived codes a web player makes to be opened by their Telegram account. Only a hash of the
-- code is kept; a used code stays until it expires, so that the launch that used it can be
-- opened again (a reload) and be told it was this account's.
CREATE TABLE game_telegram_link_codes (
  code_hash   text PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL,
  used_by     bigint
);
CREATE INDEX game_telegram_link_codes_user_idx ON game_telegram_link_codes (user_id);
CREATE INDEX game_telegram_link_codes_expires_idx ON game_telegram_link_codes (expires_at);

-- Down Migration

DROP TABLE game_telegram_link_codes;
DROP TABLE game_telegram_accounts;
