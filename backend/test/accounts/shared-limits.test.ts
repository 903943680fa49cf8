import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS } from '../../src/accounts/limits';
import { redisAvailable } from '../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeName, TestWallet } from '../lolgram/builders';

const { loginPerAccount, loginPerClient, noncePerClient } = ACCOUNT_LIMITS;
const TOO_MANY_FAILURES = /Too many failed sign-in attempts/;
// A request that hangs fails the test at this bound instead of passing late.
const CLIENT_TIMEOUT_MS = 5000;

// Behind a trusted proxy, so that each test speaks from its own client address.
const PROXIED = { TRUST_PROXY: '1' };

let clients = 0;
const newClient = () => `203.0.113.${(clients += 1)}`;

const login = (server: TestServer, client: string, username: string, password: string) =>
  request(server.url)
    .post('/api/lolgram/users/login')
    .set('X-Forwarded-For', client)
    .send({ username, password })
    .timeout(CLIENT_TIMEOUT_MS);

describe.runIf(await redisAvailable())('limits shared by two servers on one Redis', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer({ mode: 'redis', env: PROXIED });
    b = await startTestServer({
      mode: 'redis',
      env: PROXIED,
      databaseUrl: a.databaseUrl,
      redisPrefix: a.redisPrefix,
    });
  });
  afterAll(async () => {
    // B borrows A's database and Redis prefix: A, stopped last, removes them.
    await b?.stop();
    await a?.stop();
  });

  it('refuses an account through one server once failures through the other reached the limit', async () => {
    const { user, password } = await makeAccount(a.url);
    const client = newClient();
    for (let i = 0; i < loginPerAccount.limit; i += 1) {
      expect((await login(a, client, user.username, 'wrong guess!')).status).toBe(401);
    }
    const refused = await login(b, client, user.username, 'wrong guess!');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(TOO_MANY_FAILURES);
    expect((await login(b, client, user.username, password)).status).toBe(429);
    expect((await login(a, client, user.username, password)).status).toBe(429);
    expect((await login(b, newClient(), user.username, password)).status).toBe(200);
  });

  it('resets the failures counted through one server when the account signs in through the other', async () => {
    const { user, password } = await makeAccount(b.url);
    const client = newClient();
    for (let i = 0; i < loginPerAccount.limit - 1; i += 1) {
      expect((await login(a, client, user.username, 'typo typo')).status).toBe(401);
    }
    expect((await login(b, client, user.username, password)).status).toBe(200);
    // The full allowance again through A, and B sees that it is spent.
    for (let i = 0; i < loginPerAccount.limit; i += 1) {
      expect((await login(a, client, user.username, 'typo typo')).status).toBe(401);
    }
    expect((await login(b, client, user.username, password)).status).toBe(429);
  });

  it('lets one client guess across usernames no more than its limit, whichever server it asks', async () => {
    const client = newClient();
    const responses = await Promise.all(
      Array.from({ length: loginPerClient.limit + 10 }, (_, i) =>
        login(i % 2 === 0 ? a : b, client, makeName('spray'), 'Summer2024!'),
      ),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(loginPerClient.limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });

  it('counts wallet sign-in requests of one client across both servers', async () => {
    const issue = (server: TestServer, client: string) =>
      request(server.url)
        .post('/api/lolgram/auth/wallet/nonce')
        .set('X-Forwarded-For', client)
        .send({ address: new TestWallet().address })
        .timeout(CLIENT_TIMEOUT_MS);
    const client = newClient();
    const statuses = await Promise.all(
      Array.from({ length: noncePerClient.limit }, (_, i) =>
        issue(i % 2 === 0 ? a : b, client).then((res) => res.status),
      ),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect((await issue(a, client)).status).toBe(429);
    expect((await issue(b, client)).status).toBe(429);
  });
});

describe.runIf(await redisAvailable())('limits while Redis is unreachable', () => {
  let redis: RedisProcess;
  let server: TestServer;
  beforeAll(async () => {
    redis = await startRedisProcess();
    server = await startTestServer({ mode: 'redis', env: { ...PROXIED, REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('counts failed sign-ins in the process meanwhile, and in Redis again once it answers', async () => {
    const { user, password } = await makeAccount(server.url);
    await redis.kill();

    const client = newClient();
    for (let i = 0; i < loginPerAccount.limit; i += 1) {
      expect((await login(server, client, user.username, 'wrong guess!')).status).toBe(401);
    }
    const refused = await login(server, client, user.username, password);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(TOO_MANY_FAILURES);
    expect((await login(server, newClient(), user.username, password)).status).toBe(200);

    await redis.start();
    await expect
      .poll(async () => (await request(server.url).get('/readyz')).status, { timeout: 20_000 })
      .toBe(200);
    expect((await login(server, newClient(), user.username, 'wrong guess!')).status).toBe(401);
    const inspector = new Redis(redis.url);
    try {
      const keys = await inspector.keys(`${server.redisPrefix}:limit:login-account:*`);
      expect(keys).toHaveLength(1);
    } finally {
      inspector.disconnect();
    }
  });
});
