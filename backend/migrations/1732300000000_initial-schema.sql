-- Up Migration

-- The tap game ---------------------------------------------------------------

CREATE TABLE game_users (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username     text NOT NULL,
  country      char(2) NOT NULL,
  total_points bigint NOT NULL DEFAULT 0 CHECK (total_points >= 0),
  total_taps   bigint NOT NULL DEFAULT 0 CHECK (total_taps >= 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
-- Usernames are unique ignoring case.
CREATE UNIQUE INDEX game_users_username_key ON game_users (lower(username));
-- Leaderboard order and rank counts (players with strictly more points).
CREATE INDEX game_users_points_idx ON game_users (total_points DESC, id DESC);

CREATE TABLE game_sessions (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id        uuid NOT NULL REFERENCES game_users (id) ON DELETE CASCADE,
  session_points bigint NOT NULL DEFAULT 0 CHECK (session_points >= 0),
  session_taps   bigint NOT NULL DEFAULT 0 CHECK (session_taps >= 0),
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_sessions_user_idx ON game_sessions (user_id);

CREATE TABLE game_countries (
  country      char(2) PRIMARY KEY,
  total_points bigint NOT NULL DEFAULT 0 CHECK (total_points >= 0),
  total_taps   bigint NOT NULL DEFAULT 0 CHECK (total_taps >= 0),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_countries_points_idx ON game_countries (total_points DESC, country DESC);

-- LOLGram --------------------------------------------------------------------

CREATE TABLE lolgram_users (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username        text NOT NULL,
  password_hash   text,
  wallet_address  text UNIQUE,
  avatar_key      text,
  bio             text CHECK (char_length(bio) <= 150),
  is_verified     boolean NOT NULL DEFAULT false,
  role            text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  follower_count  integer NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
  following_count integer NOT NULL DEFAULT 0 CHECK (following_count >= 0),
  post_count      integer NOT NULL DEFAULT 0 CHECK (post_count >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  -- A user signs in with a password, a wallet, or both.
  CHECK (password_hash IS NOT NULL OR wallet_address IS NOT NULL)
);
CREATE UNIQUE INDEX lolgram_users_username_key ON lolgram_users (lower(username));

-- Server-side sign-in sessions; the cookie carries a random token whose hash is the id.
CREATE TABLE auth_sessions (
  id           text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  auth_method  text NOT NULL CHECK (auth_method IN ('password', 'wallet')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX auth_sessions_user_idx ON auth_sessions (user_id);
CREATE INDEX auth_sessions_expiry_idx ON auth_sessions (expires_at);

CREATE TABLE posts (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id       uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  caption       text NOT NULL CHECK (char_length(caption) BETWEEN 1 AND 2200),
  image_key     text NOT NULL,
  thumbnail_key text NOT NULL,
  location_name text,
  location_lat  double precision,
  location_lng  double precision,
  lol_count     integer NOT NULL DEFAULT 0 CHECK (lol_count >= 0),
  comment_count integer NOT NULL DEFAULT 0 CHECK (comment_count >= 0),
  -- visible: listed; held: waiting for a moderator; rejected: removed by a moderator.
  status        text NOT NULL DEFAULT 'visible' CHECK (status IN ('visible', 'held', 'rejected')),
  ai_score      numeric(4, 3) CHECK (ai_score BETWEEN 0 AND 1),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX posts_feed_idx ON posts (created_at DESC, id DESC) WHERE status = 'visible';
CREATE INDEX posts_user_idx ON posts (user_id, created_at DESC, id DESC);

CREATE TABLE follows (
  follower_id  uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  following_id uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (follower_id, following_id),
  CHECK (follower_id <> following_id)
);
CREATE INDEX follows_following_idx ON follows (following_id);

-- LOLs (likes).
CREATE TABLE post_lols (
  post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id    uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (post_id, user_id)
);
CREATE INDEX post_lols_user_idx ON post_lols (user_id);

-- A viewer (signed-in user or anonymous browser) counts once per post per hour.
CREATE TABLE post_views (
  post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  viewer_key text NOT NULL,
  view_hour  timestamptz NOT NULL,
  PRIMARY KEY (post_id, viewer_key, view_hour)
);
CREATE INDEX post_views_hour_idx ON post_views (view_hour, post_id);

-- Moderation -----------------------------------------------------------------

CREATE TABLE moderation_queue (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  content_type text NOT NULL CHECK (content_type IN ('post', 'other')),
  content_id   uuid NOT NULL,
  ai_score     numeric(4, 3) NOT NULL DEFAULT 0 CHECK (ai_score BETWEEN 0 AND 1),
  reason       text NOT NULL,
  report_count integer NOT NULL DEFAULT 0 CHECK (report_count >= 0),
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  decided_at   timestamptz
);
-- One open item per piece of content; reports add to it.
CREATE UNIQUE INDEX moderation_queue_open_key ON moderation_queue (content_type, content_id)
  WHERE status = 'pending';
CREATE INDEX moderation_queue_pending_idx ON moderation_queue (created_at, id) WHERE status = 'pending';

CREATE TABLE post_reports (
  post_id     uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  reporter_id uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  reason      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (post_id, reporter_id)
);
CREATE INDEX post_reports_reporter_idx ON post_reports (reporter_id, created_at);

-- The audit trail: one decision per queue item, never updated or deleted.
CREATE TABLE moderation_decisions (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  queue_id     uuid NOT NULL UNIQUE REFERENCES moderation_queue (id),
  moderator_id uuid NOT NULL REFERENCES lolgram_users (id),
  decision     text NOT NULL CHECK (decision IN ('approved', 'rejected')),
  notes        text NOT NULL DEFAULT '',
  decided_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX moderation_decisions_time_idx ON moderation_decisions (decided_at DESC);

CREATE FUNCTION forbid_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'moderation_decisions is append-only';
END;
$$;
CREATE TRIGGER moderation_decisions_append_only
  BEFORE UPDATE OR DELETE ON moderation_decisions
  FOR EACH ROW EXECUTE FUNCTION forbid_audit_change();

-- Down Migration

DROP TABLE moderation_decisions;
DROP FUNCTION forbid_audit_change();
DROP TABLE post_reports;
DROP TABLE moderation_queue;
DROP TABLE post_views;
DROP TABLE post_lols;
DROP TABLE follows;
DROP TABLE posts;
DROP TABLE auth_sessions;
DROP TABLE lolgram_users;
DROP TABLE game_countries;
DROP TABLE game_sessions;
DROP TABLE game_users;
