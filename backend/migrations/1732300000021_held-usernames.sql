-- Up Migration

-- The username of a deleted account, held until `released_at` (DELETED_USERNAME_HOLD_DAYS after
-- the deletion) so that nobody can take it at once and pass for the person who left. Keyed by the
-- name in lower case, as usernames are unique ignoring case.
CREATE TABLE held_usernames (
  username    text PRIMARY KEY,
  released_at timestamptz NOT NULL
);
CREATE INDEX held_usernames_release_idx ON held_usernames (released_at);

-- Down Migration

DROP TABLE held_usernames;
