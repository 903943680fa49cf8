-- Up Migration

-- Comments and their replies (one level: a reply's parent is always a top comment). A thread reads
-- oldest first with the replies under their comment: ordered by the top comment's sequence number
-- (`thread_seq`, its own for a top comment) and then by the comment's own, which is larger for
-- every reply than for the comment it answers.
CREATE SEQUENCE post_comments_seq;
CREATE TABLE post_comments (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id    uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  parent_id  uuid REFERENCES post_comments (id) ON DELETE CASCADE,
  seq        bigint NOT NULL DEFAULT nextval('post_comments_seq'),
  thread_seq bigint NOT NULL,
  -- Emptied when its author deletes a comment that keeps its replies.
  body       text NOT NULL CHECK (char_length(body) <= 500),
  -- checking: its automatic check runs (only its author sees it); held: waiting for a moderator;
  -- rejected: removed by a moderator; deleted: deleted by its author or the post's, kept as
  -- "deleted" above its replies.
  status     text NOT NULL CHECK (status IN ('checking', 'visible', 'held', 'rejected', 'deleted')),
  ai_score   numeric(4, 3) CHECK (ai_score BETWEEN 0 AND 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status = 'deleted' OR char_length(body) >= 1)
);
ALTER SEQUENCE post_comments_seq OWNED BY post_comments.seq;
-- A thread, a page at a time.
CREATE INDEX post_comments_thread_idx ON post_comments (post_id, thread_seq, seq);
-- The first comments of each post on a feed page.
CREATE INDEX post_comments_first_idx ON post_comments (post_id, seq)
  WHERE status = 'visible' AND parent_id IS NULL;
CREATE INDEX post_comments_replies_idx ON post_comments (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX post_comments_user_idx ON post_comments (user_id);
CREATE INDEX post_comments_checking_idx ON post_comments (created_at, id) WHERE status = 'checking';

-- Its author turns comments off for a post: no new comment or reply.
ALTER TABLE posts ADD COLUMN comments_off boolean NOT NULL DEFAULT false;

-- Reports of comments, as post_reports are of posts.
CREATE TABLE comment_reports (
  comment_id  uuid NOT NULL REFERENCES post_comments (id) ON DELETE CASCADE,
  reporter_id uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  reason      text NOT NULL,
  details     text CHECK (char_length(details) <= 500),
  queue_id    uuid REFERENCES moderation_queue (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (comment_id, reporter_id)
);
CREATE INDEX comment_reports_reporter_idx ON comment_reports (reporter_id, created_at);
CREATE INDEX comment_reports_queue_idx ON comment_reports (queue_id) WHERE queue_id IS NOT NULL;

ALTER TABLE moderation_queue DROP CONSTRAINT moderation_queue_content_type_check;
ALTER TABLE moderation_queue ADD CONSTRAINT moderation_queue_content_type_check
  CHECK (content_type IN ('post', 'comment', 'other'));

-- Down Migration

-- The queue keeps accepting 'comment' items: their decided ones stay in the audit trail.
DROP TABLE comment_reports;
ALTER TABLE posts DROP COLUMN comments_off;
DROP TABLE post_comments;
