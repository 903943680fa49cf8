-- Up Migration

-- What users are told: someone LOLed, followed, commented or replied; moderation's outcomes.
-- Kinds with actors group: while unread, one row per user, kind and subject (group_key: the post,
-- the replied comment, or '' for follows) takes every new actor, keeping a count and the latest
-- few, so that a storm of LOLs on one post stays one row.
CREATE TABLE notifications (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('lol', 'follow', 'comment', 'reply', 'report-removed',
                                            'post-held', 'post-approved', 'post-rejected')),
  group_key   text NOT NULL,
  -- A deleted post's notifications go with it.
  post_id     uuid REFERENCES posts (id) ON DELETE CASCADE,
  comment_id  uuid,
  -- The latest actors, newest first (at most a few), and how many in all.
  actor_ids   uuid[] NOT NULL DEFAULT '{}',
  actor_count integer NOT NULL DEFAULT 0 CHECK (actor_count >= 0),
  read_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
-- The one unread row of a group, which new actors update.
CREATE UNIQUE INDEX notifications_unread_group_key
  ON notifications (user_id, kind, group_key) WHERE read_at IS NULL;
-- The list, the latest changed first; and the unread count.
CREATE INDEX notifications_list_idx ON notifications (user_id, updated_at DESC, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;
-- Pruning: the oldest first.
CREATE INDEX notifications_prune_idx ON notifications (updated_at);
CREATE INDEX notifications_post_idx ON notifications (post_id) WHERE post_id IS NOT NULL;

-- Down Migration

DROP TABLE notifications;
