-- Up Migration

-- What an account did that looks like a comment wave, per post, for operators: comments it
-- deleted soon after writing them (the place they took in the post's limit given back), and the
-- waves it took part in (a post's limit refused someone while its comments were among those
-- counted). Read by the admin dashboard's "Comment waves".
CREATE TABLE comment_signals (
  user_id        uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  post_id        uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  -- Comments deleted by their author within the post limit's window.
  deleted_soon   integer NOT NULL DEFAULT 0,
  -- Waves on this post the account took part in (one a window at most).
  waves          integer NOT NULL DEFAULT 0,
  -- The last wave counted (a refusal within the window after it is the same wave).
  last_wave_at   timestamptz,
  last_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, post_id)
);
CREATE INDEX comment_signals_post_idx ON comment_signals (post_id, last_at);
CREATE INDEX comment_signals_recent_idx ON comment_signals (last_at);

-- Down Migration

DROP TABLE comment_signals;
