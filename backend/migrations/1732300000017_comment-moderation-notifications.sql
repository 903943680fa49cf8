-- Up Migration

-- The author of a comment hears how moderation went for it, as the author of a post does: held for
-- a moderator, approved after that, or removed.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
  CHECK (kind IN ('lol', 'follow', 'comment', 'reply', 'report-removed',
                  'post-held', 'post-approved', 'post-rejected',
                  'comment-held', 'comment-approved', 'comment-rejected'));

-- Down Migration

DELETE FROM notifications WHERE kind IN ('comment-held', 'comment-approved', 'comment-rejected');
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
  CHECK (kind IN ('lol', 'follow', 'comment', 'reply', 'report-removed',
                  'post-held', 'post-approved', 'post-rejected'));
