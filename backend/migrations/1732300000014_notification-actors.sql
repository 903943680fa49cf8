-- Up Migration

-- Every actor of a grouped notification (`actor_ids` keeps only the latest few, for the list): a
-- repeated action is counted once however long ago its actor acted, and the count shown leaves out
-- the actors the user and they have blocked between them.
CREATE TABLE notification_actors (
  notification_id uuid NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
  actor_id        uuid NOT NULL REFERENCES lolgram_users (id) ON DELETE CASCADE,
  PRIMARY KEY (notification_id, actor_id)
);
CREATE INDEX notification_actors_actor_idx ON notification_actors (actor_id);

-- The actors known of the notifications already written: the latest few of each.
INSERT INTO notification_actors (notification_id, actor_id)
SELECT n.id, a.id
  FROM notifications n CROSS JOIN unnest(n.actor_ids) AS a(id)
  JOIN lolgram_users u ON u.id = a.id
ON CONFLICT DO NOTHING;

-- Down Migration

DROP TABLE notification_actors;
