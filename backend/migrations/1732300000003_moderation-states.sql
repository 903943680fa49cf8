-- Up Migration

-- checking: a new post whose automatic check has not finished; only its author sees it. The insert
-- names the status, so the default stays 'visible' for rows written by hand (the benchmark seed).
ALTER TABLE posts DROP CONSTRAINT posts_status_check;
ALTER TABLE posts ADD CONSTRAINT posts_status_check
  CHECK (status IN ('checking', 'visible', 'held', 'rejected'));
-- The posts a stopped server left unchecked, found again at start-up.
CREATE INDEX posts_checking_idx ON posts (created_at, id) WHERE status = 'checking';

-- A user's post count is the number of their visible posts (held ones were counted until now).
UPDATE lolgram_users u
   SET post_count = (SELECT count(*) FROM posts p WHERE p.user_id = u.id AND p.status = 'visible')
 WHERE post_count <> (SELECT count(*) FROM posts p WHERE p.user_id = u.id AND p.status = 'visible');

-- A report's reason comes from a fixed list; the reporter's own words go here.
ALTER TABLE post_reports ADD COLUMN details text CHECK (char_length(details) <= 500);

-- The audit trail cannot be emptied either: the row trigger does not see TRUNCATE.
CREATE TRIGGER moderation_decisions_no_truncate
  BEFORE TRUNCATE ON moderation_decisions
  FOR EACH STATEMENT EXECUTE FUNCTION forbid_audit_change();

-- Down Migration

DROP TRIGGER moderation_decisions_no_truncate ON moderation_decisions;
ALTER TABLE post_reports DROP COLUMN details;
DROP INDEX posts_checking_idx;
UPDATE posts SET status = 'held' WHERE status = 'checking';
ALTER TABLE posts DROP CONSTRAINT posts_status_check;
ALTER TABLE posts ADD CONSTRAINT posts_status_check
  CHECK (status IN ('visible', 'held', 'rejected'));
