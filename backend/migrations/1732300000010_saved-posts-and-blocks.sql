-- Up Migration

-- The posts each user saved, private to them: their Saved grid reads them newest saved first.
CREATE TABLE post_saves (
  user_id    uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, post_id)
);
CREATE INDEX post_saves_list_idx ON post_saves (user_id, created_at DESC, post_id DESC);
-- A deleted post's saves go with it.
CREATE INDEX post_saves_post_idx ON post_saves (post_id);

-- Who blocked whom. Reads ask "has either of these two blocked the other": the primary key
-- answers one direction, the second index the other.
CREATE TABLE user_blocks (
  blocker_id uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  blocked_id uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (blocker_id, blocked_id),
  CHECK (blocker_id <> blocked_id)
);
CREATE INDEX user_blocks_blocked_idx ON user_blocks (blocked_id, blocker_id);
CREATE INDEX user_blocks_list_idx ON user_blocks (blocker_id, created_at DESC, blocked_id DESC);

-- The map's list and count: public posts that have a location, newest first.
CREATE INDEX posts_located_idx ON posts (created_at DESC, id DESC)
  WHERE status = 'visible' AND location_name IS NOT NULL;

-- Down Migration

DROP INDEX posts_located_idx;
DROP TABLE user_blocks;
DROP TABLE post_saves;
