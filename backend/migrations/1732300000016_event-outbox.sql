-- Up Migration

-- The outbox of durable domain events: an event whose handlers' work must not be lost (a
-- notification, a live push, a moderation check) is written here in the transaction of the change
-- that caused it, delivered once that commits, and deleted when every handler of it has run. The
-- node delivering an event holds it until `locked_until`; one whose lease ran out (its node died,
-- or a handler failed and its retry is due) is taken by the next node that looks. 'infinity': given
-- up after repeated failures, kept for an operator (set it to now() to deliver it again).
CREATE TABLE event_outbox (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name         text NOT NULL,
  payload      jsonb NOT NULL,
  -- Deliveries begun.
  attempts     integer NOT NULL DEFAULT 1,
  locked_until timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_outbox_due_idx ON event_outbox (locked_until, id);

-- What a handler did once for an event (a notification written): another delivery of the event
-- finds it and does not do it again. Gone with its event.
CREATE TABLE event_outbox_effects (
  event_id bigint NOT NULL REFERENCES event_outbox (id) ON DELETE CASCADE,
  key      text NOT NULL,
  PRIMARY KEY (event_id, key)
);

-- Down Migration

DROP TABLE event_outbox_effects;
DROP TABLE event_outbox;
