-- Up Migration

-- The queue item a report joined: a decision tells its reporters (moderation.decided). Reports
-- made before this column existed are matched to the item still pending for their post, when it
-- was opened before them; those of decided items keep no link.
ALTER TABLE post_reports ADD COLUMN queue_id uuid REFERENCES moderation_queue (id);
UPDATE post_reports r
   SET queue_id = q.id
  FROM moderation_queue q
 WHERE q.content_type = 'post' AND q.content_id = r.post_id AND q.status = 'pending'
   AND q.created_at <= r.created_at;
CREATE INDEX post_reports_queue_idx ON post_reports (queue_id) WHERE queue_id IS NOT NULL;

-- Down Migration

DROP INDEX post_reports_queue_idx;
ALTER TABLE post_reports DROP COLUMN queue_id;
