import type pg from 'pg';
import type { Queryable } from './database';

/** An event recorded in the outbox, as a node takes it to deliver. */
export interface RecordedEvent {
  id: string;
  name: string;
  payload: unknown;
  /** Deliveries begun, this one included. */
  attempts: number;
}

/**
 * The outbox of durable domain events, in SQL: an event is written in the transaction of the change
 * that caused it, leased to the node delivering it (`locked_until`, on the database's clock, the
 * same for every node), and deleted once every handler of it has run. An event whose lease ran out
 * (its node died, or a handler failed and it waits for its retry) is taken by the next node to look.
 */
export class OutboxRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** In the change's transaction: the event, leased to this node for `leaseSeconds`. */
  async add(
    client: pg.PoolClient,
    name: string,
    payload: unknown,
    leaseSeconds: number,
  ): Promise<string> {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO event_outbox (name, payload, locked_until)
       VALUES ($1, $2, now() + make_interval(secs => $3))
       RETURNING id::text`,
      [name, JSON.stringify(payload), leaseSeconds],
    );
    return rows[0].id;
  }

  /**
   * Takes up to `limit` events whose lease ran out, the longest waiting first, leased to this node
   * for `leaseSeconds`: nodes looking at once take different events.
   */
  async takeDue(limit: number, leaseSeconds: number): Promise<RecordedEvent[]> {
    const { rows } = await this.pool.query<RecordedEvent>(
      `UPDATE event_outbox o
          SET locked_until = now() + make_interval(secs => $2), attempts = o.attempts + 1
        WHERE o.id IN (SELECT id FROM event_outbox
                        WHERE locked_until <= now()
                        ORDER BY locked_until, id
                        LIMIT $1
                        FOR UPDATE SKIP LOCKED)
        RETURNING o.id::text, o.name, o.payload, o.attempts`,
      [limit, leaseSeconds],
    );
    return rows;
  }

  /** Every handler ran: the event goes, with what its handlers did once. */
  async done(id: string): Promise<void> {
    await this.pool.query('DELETE FROM event_outbox WHERE id = $1', [id]);
  }

  /** A handler failed: the event is taken again after `seconds` (never, when null: given up). */
  async retryAfter(id: string, seconds: number | null): Promise<void> {
    await this.pool.query(
      `UPDATE event_outbox
          SET locked_until = CASE WHEN $2::float8 IS NULL THEN 'infinity'::timestamptz
                                  ELSE now() + make_interval(secs => $2::float8) END
        WHERE id = $1`,
      [id, seconds],
    );
  }

  /**
   * In the transaction of a handler's write: true the first time `key` is done for the event, and
   * false when an earlier delivery of it did it already (or the event is gone: delivered).
   */
  async once(client: Queryable, id: string, key: string): Promise<boolean> {
    const { rowCount } = await client.query(
      `INSERT INTO event_outbox_effects (event_id, key)
       SELECT $1::bigint, $2 WHERE EXISTS (SELECT 1 FROM event_outbox WHERE id = $1::bigint)
       ON CONFLICT DO NOTHING`,
      [id, key],
    );
    return (rowCount ?? 0) > 0;
  }
}
