-- Up Migration

-- An author's new caption waits here until its automatic check passes: the post keeps showing its
-- caption to everyone else meanwhile. One edit per post (a newer one replaces it, with a new
-- `version`); checking: its check runs (only the author sees it); held: waiting for a moderator.
-- Written with the edit's answer, so that a check a stopped server left undone is run at start.
CREATE TABLE post_caption_edits (
  post_id    uuid PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
  version    uuid NOT NULL DEFAULT gen_random_uuid(),
  caption    text NOT NULL CHECK (char_length(caption) >= 1),
  status     text NOT NULL DEFAULT 'checking' CHECK (status IN ('checking', 'held')),
  ai_score   numeric(4, 3) CHECK (ai_score BETWEEN 0 AND 1),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX post_caption_edits_checking_idx ON post_caption_edits (created_at, post_id)
  WHERE status = 'checking';

-- A held edit is queued as its own item: deciding it shows or drops the edit, not the post.
ALTER TABLE moderation_queue DROP CONSTRAINT moderation_queue_content_type_check;
ALTER TABLE moderation_queue ADD CONSTRAINT moderation_queue_content_type_check
  CHECK (content_type IN ('post', 'comment', 'post-edit', 'other'));

-- Down Migration

-- The queue keeps accepting 'post-edit' items: their decided ones stay in the audit trail.
DROP TABLE post_caption_edits;
