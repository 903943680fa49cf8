import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS } from '../../src/accounts/limits';
import { storageModes } from '../game/modes';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeName } from '../lolgram/builders';

const { signupPerClient } = ACCOUNT_LIMITS;
const HOUR_SECONDS = 60 * 60;

describe.each(storageModes)('sign-ups per client address (%s)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    // One proxy in front: the address is the last X-Forwarded-For entry, the one it added.
    server = await startTestServer({
      mode,
      env: { TRUST_PROXY: '1', SIGNUPS_PER_HOUR: String(signupPerClient.limit) },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signUp = (forwardedFor: string, username = makeName('new')) =>
    request(server.url)
      .post('/api/lolgram/users/create')
      .set('X-Forwarded-For', forwardedFor)
      .send({ username, password: 'correct horse battery' });
  const accounts = async () =>
    (await server.db.pool.query('SELECT count(*)::int AS n FROM lolgram_users')).rows[0].n;

  it('refuses the sign-up past the limit with 429 and Retry-After, creating nothing; another address signs up', async () => {
    for (let i = 0; i < signupPerClient.limit; i += 1) {
      expect((await signUp('203.0.113.40')).status).toBe(201);
    }
    const before = await accounts();
    const refused = await signUp('203.0.113.40');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.stringMatching(/Too many new accounts/) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(HOUR_SECONDS);
    expect(await accounts()).toBe(before);
    expect((await signUp('203.0.113.41')).status).toBe(201);
  });

  it('counts by the hop the trusted proxy added: addresses a client prepends give no fresh allowance', async () => {
    const real = '198.51.100.60';
    const statuses: number[] = [];
    for (let i = 0; i <= signupPerClient.limit; i += 1) {
      statuses.push((await signUp(`10.9.${i}.1, 192.0.2.${i + 1}, ${real}`)).status);
    }
    expect(statuses.slice(0, signupPerClient.limit).every((status) => status === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // The same forged prefix from another real client is that client's first sign-up.
    expect((await signUp(`10.9.0.1, 192.0.2.1, 198.51.100.61`)).status).toBe(201);
  });
});

describe('sign-ups with no trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { SIGNUPS_PER_HOUR: String(signupPerClient.limit) } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('ignores X-Forwarded-For: the peer address is the client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= signupPerClient.limit; i += 1) {
      const res = await request(server.url)
        .post('/api/lolgram/users/create')
        .set('X-Forwarded-For', `203.0.113.${i + 1}`)
        .send({ username: makeName('direct'), password: 'correct horse battery' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, signupPerClient.limit).every((status) => status === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
