import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_LIMITS } from '../../src/accounts/limits';
import { storageModes } from '../game/modes';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeName } from '../lolgram/builders';

const { loginPerAccount, loginPerClient } = ACCOUNT_LIMITS;

describe.each(storageModes)('failed sign-in limits (%s)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    // Behind a trusted proxy, so that each test speaks from its own client address.
    server = await startTestServer({ mode, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  let clients = 0;
  const newClient = () => `203.0.113.${(clients += 1)}`;
  const login = (client: string, username: string, password: string) =>
    request(server.url)
      .post('/api/lolgram/users/login')
      .set('X-Forwarded-For', client)
      .send({ username, password });
  const tally = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((counts, status) => {
      counts[status] = (counts[status] ?? 0) + 1;
      return counts;
    }, {});

  it('lets at most the limit of concurrent wrong guesses reach the password check; the rest answer 429', async () => {
    const { user, password } = await makeAccount(server.url);
    const client = newClient();
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => login(client, user.username, 'wrong guess!')),
    );
    expect(tally(responses.map((res) => res.status))).toEqual({
      401: loginPerAccount.limit,
      429: 40 - loginPerAccount.limit,
    });
    const limited = responses.find((res) => res.status === 429)!;
    expect(limited.body.error).toMatch(/Too many failed sign-in attempts/);
    // Even the right password waits now, from this client; another client is not affected.
    expect((await login(client, user.username, password)).status).toBe(429);
    expect((await login(newClient(), user.username, password)).status).toBe(200);
  });

  it('limits one client guessing across many usernames (password spraying)', async () => {
    const client = newClient();
    const responses = await Promise.all(
      Array.from({ length: loginPerClient.limit + 10 }, () =>
        login(client, makeName('spray'), 'Summer2024!'),
      ),
    );
    expect(tally(responses.map((res) => res.status))).toEqual({
      401: loginPerClient.limit,
      429: 10,
    });
    const { user, password } = await makeAccount(server.url);
    expect((await login(client, user.username, password)).status).toBe(429);
    expect((await login(newClient(), user.username, password)).status).toBe(200);
  });

  it('forgives a failure once the same client signs in: typos do not add up across good sign-ins', async () => {
    const { user, password } = await makeAccount(server.url);
    const client = newClient();
    for (let round = 0; round < loginPerAccount.limit + 2; round += 1) {
      expect((await login(client, user.username, 'typo typo')).status).toBe(401);
      expect((await login(client, user.username, password)).status).toBe(200);
    }
  });
});
