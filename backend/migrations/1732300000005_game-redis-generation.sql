-- Up Migration

-- Which generation of the Redis game counters Postgres follows. Rebuilding an emptied Redis from
-- Postgres starts a new generation; a flush of figures taken from an older one is not written, so
-- Postgres never mixes the counters of a Redis that is gone with those the rebuild read.
CREATE TABLE game_redis_generation (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  generation uuid NOT NULL
);
INSERT INTO game_redis_generation (generation) VALUES (gen_random_uuid());

-- Down Migration

DROP TABLE game_redis_generation;
