import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS } from '../../src/accounts/limits';
import { startTestServer, type TestServer } from '../../test-support/server';
import { TestWallet } from '../lolgram/builders';

const { noncePerClient } = ACCOUNT_LIMITS;

describe('wallet sign-in nonce issuance', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const issue = (client: string) =>
    request(server.url)
      .post('/api/lolgram/auth/wallet/nonce')
      .set('X-Forwarded-For', client)
      .send({ address: new TestWallet().address });

  it('rate-limits nonces per client address with 429, and stores no row for a refused request', async () => {
    const statuses = (
      await Promise.all(Array.from({ length: noncePerClient.limit }, () => issue('198.51.100.7')))
    ).map((res) => res.status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const before = await server.db.pool.query('SELECT count(*)::int AS n FROM wallet_nonces');
    const refused = await issue('198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/Too many sign-in requests/);
    const after = await server.db.pool.query('SELECT count(*)::int AS n FROM wallet_nonces');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect((await issue('198.51.100.8')).status).toBe(200);
  });
});
