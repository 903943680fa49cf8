import { createLogger } from '../../src/core/logger';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createExpiryCleanup } from '../../src/accounts/expiry-cleanup';
import { SessionStore } from '../../src/accounts/sessions';
import { WalletAuth } from '../../src/accounts/wallet-auth';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeName } from '../lolgram/builders';

describe('cleanup of expired nonces and sessions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function seed() {
    const { user } = await makeAccount(server.url);
    const stale = makeName('stale');
    const fresh = makeName('fresh');
    await server.db.pool.query(
      `INSERT INTO wallet_nonces (nonce, address, domain, expires_at)
       VALUES ($1, 'a', 'localhost', now() - interval '1 minute'), ($2, 'a', 'localhost', now() + interval '5 minutes')`,
      [stale, fresh],
    );
    await server.db.pool.query(
      `INSERT INTO auth_sessions (id, user_id, auth_method, expires_at)
       VALUES ($1, $3, 'password', now() - interval '1 minute'), ($2, $3, 'password', now() + interval '1 day')`,
      [stale, fresh, user.id],
    );
    return { stale, fresh };
  }

  const exists = async (table: 'wallet_nonces' | 'auth_sessions', column: string, id: string) =>
    (await server.db.pool.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [id])).rowCount ===
    1;

  it('deletes expired nonces and sessions and keeps live ones', async () => {
    const { stale, fresh } = await seed();
    const cleanup = createExpiryCleanup(
      {
        nonces: new WalletAuth(server.db.pool),
        sessions: new SessionStore(server.db.pool, server.events),
      },
      createLogger('silent'),
      60_000,
    );
    const deleted = await cleanup.runOnce();
    await cleanup.stop();
    expect(deleted.nonces).toBeGreaterThanOrEqual(1);
    expect(deleted.sessions).toBeGreaterThanOrEqual(1);
    expect(await exists('wallet_nonces', 'nonce', stale)).toBe(false);
    expect(await exists('auth_sessions', 'id', stale)).toBe(false);
    expect(await exists('wallet_nonces', 'nonce', fresh)).toBe(true);
    expect(await exists('auth_sessions', 'id', fresh)).toBe(true);
  });

  it('runs on its timer until stopped', async () => {
    const { stale } = await seed();
    const nonces = new WalletAuth(server.db.pool);
    let runsStarted = 0;
    const cleanup = createExpiryCleanup(
      {
        // The first table: a run calls it as soon as it starts.
        nonces: {
          deleteExpired: (now) => {
            runsStarted += 1;
            return nonces.deleteExpired(now);
          },
        },
        sessions: new SessionStore(server.db.pool, server.events),
      },
      createLogger('silent'),
      50,
    );
    // Only the cleanup's interval runs on the fake clock; the database keeps its own timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      cleanup.start();
      vi.advanceTimersByTime(49);
      expect(runsStarted).toBe(0);
      vi.advanceTimersByTime(1);
      expect(runsStarted).toBe(1);
      // Stopping waits for the run the timer started.
      await cleanup.stop();
      expect(await exists('wallet_nonces', 'nonce', stale)).toBe(false);

      const { stale: later } = await seed();
      let ticks = 0;
      const witness = setInterval(() => {
        ticks += 1;
      }, 50);
      vi.advanceTimersByTime(10 * 50);
      clearInterval(witness);
      // Ten intervals went by after the stop, and none of them started a run.
      expect(ticks).toBe(10);
      expect(runsStarted).toBe(1);
      await cleanup.stop();
      expect(await exists('wallet_nonces', 'nonce', later)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
