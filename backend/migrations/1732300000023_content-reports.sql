-- Up Migration

-- One table of reports for every content type, keyed by the type and the content's id as the
-- moderation queue is. A report goes with its content: each type's id also fills a generated
-- column that references that type's table, so that deleting the content deletes its reports.
CREATE TABLE content_reports (
  content_type text NOT NULL CHECK (content_type IN ('post', 'comment')),
  content_id   uuid NOT NULL,
  reporter_id  uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  reason       text NOT NULL,
  details      text CHECK (char_length(details) <= 500),
  queue_id     uuid REFERENCES moderation_queue (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  post_id      uuid GENERATED ALWAYS AS (CASE WHEN content_type = 'post' THEN content_id END) STORED
                 REFERENCES posts (id) ON DELETE CASCADE,
  comment_id   uuid GENERATED ALWAYS AS (CASE WHEN content_type = 'comment' THEN content_id END) STORED
                 REFERENCES post_comments (id) ON DELETE CASCADE,
  PRIMARY KEY (content_type, content_id, reporter_id)
);
CREATE INDEX content_reports_reporter_idx ON content_reports (reporter_id, created_at);
CREATE INDEX content_reports_queue_idx ON content_reports (queue_id) WHERE queue_id IS NOT NULL;
CREATE INDEX content_reports_post_idx ON content_reports (post_id) WHERE post_id IS NOT NULL;
CREATE INDEX content_reports_comment_idx ON content_reports (comment_id) WHERE comment_id IS NOT NULL;

INSERT INTO content_reports (content_type, content_id, reporter_id, reason, details, queue_id, created_at)
SELECT 'post', post_id, reporter_id, reason, details, queue_id, created_at FROM post_reports
UNION ALL
SELECT 'comment', comment_id, reporter_id, reason, details, queue_id, created_at FROM comment_reports;

DROP TABLE post_reports;
DROP TABLE comment_reports;

-- Down Migration

CREATE TABLE post_reports (
  post_id     uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  reporter_id uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  reason      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  details     text CHECK (char_length(details) <= 500),
  queue_id    uuid REFERENCES moderation_queue (id),
  PRIMARY KEY (post_id, reporter_id)
);
CREATE INDEX post_reports_reporter_idx ON post_reports (reporter_id, created_at);
CREATE INDEX post_reports_queue_idx ON post_reports (queue_id) WHERE queue_id IS NOT NULL;
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
INSERT INTO post_reports (post_id, reporter_id, reason, details, queue_id, created_at)
SELECT content_id, reporter_id, reason, details, queue_id, created_at
  FROM content_reports WHERE content_type = 'post';
INSERT INTO comment_reports (comment_id, reporter_id, reason, details, queue_id, created_at)
SELECT content_id, reporter_id, reason, details, queue_id, created_at
  FROM content_reports WHERE content_type = 'comment';
DROP TABLE content_reports;
