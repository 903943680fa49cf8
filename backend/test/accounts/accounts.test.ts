import { errorBodySchema, lolgramUserSchema, meAnswerSchema, messages } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, makeName } from '../lolgram/builders';

describe('LOLGram accounts and sessions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIN_USERNAMES: 'Chief_One, chief_two' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates an account, signs it in with an httpOnly SameSite cookie, and stores only a slow hash', async () => {
    const username = makeName();
    const agent = request.agent(server.url);
    const res = await agent
      .post('/api/lolgram/users/create')
      .send({ username, password: 'a long password' });
    expect(res.status).toBe(201);
    expectAnswer(lolgramUserSchema, res.body);
    expect(res.body).toMatchObject({
      username,
      followerCount: 0,
      postCount: 0,
      walletAddress: null,
      isVerified: false,
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/lg_session=.+HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const me = expectAnswer(meAnswerSchema, (await agent.get('/api/lolgram/users/me')).body);
    expect(me).toEqual({ ...res.body, isAdmin: false });
    const { rows } = await server.db.pool.query(
      'SELECT password_hash FROM lolgram_users WHERE id = $1',
      [res.body.id],
    );
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].password_hash).not.toContain('a long password');
  });

  it('refuses bad sign-ups with 400 and a taken name ignoring case with 409', async () => {
    const short = await request(server.url)
      .post('/api/lolgram/users/create')
      .send({ username: makeName(), password: 'short' });
    expect(short.status).toBe(400);
    expect(expectAnswer(errorBodySchema, short.body)).toEqual({ error: messages.passwordTooShort });
    const badName = await request(server.url)
      .post('/api/lolgram/users/create')
      .send({ username: 'a b', password: 'long enough' });
    expect(badName.body).toEqual({ error: messages.usernameCharacters });
    const { user } = await makeAccount(server.url);
    const taken = await request(server.url)
      .post('/api/lolgram/users/create')
      .send({ username: user.username.toUpperCase(), password: 'long enough' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: 'Username already taken' });
  });

  it('signs in with the right password, a new session each time, and refuses a wrong one with 401', async () => {
    const { user, password } = await makeAccount(server.url);
    const agent = request.agent(server.url);
    const wrong = await agent
      .post('/api/lolgram/users/login')
      .send({ username: user.username, password: 'nope nope' });
    expect(wrong.status).toBe(401);
    expect(expectAnswer(errorBodySchema, wrong.body)).toEqual({
      error: 'Invalid username or password',
    });
    const unknown = await agent
      .post('/api/lolgram/users/login')
      .send({ username: makeName(), password });
    expect(unknown.body).toEqual({ error: 'Invalid username or password' });
    const first = await agent
      .post('/api/lolgram/users/login')
      .send({ username: user.username, password });
    expect(first.status).toBe(200);
    expect(expectAnswer(lolgramUserSchema, first.body).id).toBe(user.id);
    const second = await agent
      .post('/api/lolgram/users/login')
      .send({ username: user.username, password });
    const token = (res: request.Response) =>
      /lg_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1];
    expect(token(second)).not.toBe(token(first));
    const old = await request(server.url)
      .get('/api/lolgram/users/me')
      .set('Cookie', `lg_session=${token(first)}`);
    expect(old.status).toBe(401);
  });

  it('rate-limits repeated failed logins with 429', async () => {
    const { user } = await makeAccount(server.url);
    const statuses = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push(
        (
          await request(server.url)
            .post('/api/lolgram/users/login')
            .send({ username: user.username, password: 'wrong!!!' })
        ).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('logs out on the server, answers 401 to /me without a session, and "User not found" for a deleted account', async () => {
    const { agent, user } = await makeAccount(server.url);
    expect((await request(server.url).get('/api/lolgram/users/me')).status).toBe(401);
    expect((await agent.post('/api/lolgram/users/logout')).status).toBe(204);
    expect((await agent.get('/api/lolgram/users/me')).status).toBe(401);

    const gone = await makeAccount(server.url);
    await server.db.pool.query('DELETE FROM lolgram_users WHERE id = $1', [gone.user.id]);
    const res = await gone.agent.get('/api/lolgram/users/me');
    expect(res.status).toBe(401);
    expect(expectAnswer(errorBodySchema, res.body).error).toContain('User not found');
    expect(user.id).toBeTruthy();
  });

  it('refuses a state-changing call from another site', async () => {
    const res = await request(server.url)
      .post('/api/lolgram/users/login')
      .set('Origin', 'https://evil.example')
      .send({ username: 'x', password: 'y' });
    expect(res.status).toBe(403);
    const fetchSite = await request(server.url)
      .post('/api/lolgram/users/logout')
      .set('Sec-Fetch-Site', 'cross-site');
    expect(fetchSite.status).toBe(403);
  });

  it('finds users by id and username, 404 "User not found" otherwise, and edits only its own profile', async () => {
    const alice = await makeAccount(server.url);
    const bob = await makeAccount(server.url);
    const byId = await request(server.url).get(`/api/lolgram/users/${alice.user.id}`);
    expect(expectAnswer(lolgramUserSchema, byId.body)).toEqual(alice.user);
    const byName = await request(server.url).get(
      `/api/lolgram/users/username/${alice.user.username.toUpperCase()}`,
    );
    expect(expectAnswer(lolgramUserSchema, byName.body).id).toBe(alice.user.id);
    const missing = await request(server.url).get('/api/lolgram/users/username/nobody_here_at_all');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'User not found' });

    const newName = makeName('renamed');
    const edited = await alice.agent
      .put(`/api/lolgram/users/${alice.user.id}`)
      .send({ username: newName, bio: 'I post memes' });
    expect(edited.status).toBe(200);
    expect(expectAnswer(lolgramUserSchema, edited.body)).toMatchObject({
      username: newName,
      bio: 'I post memes',
    });
    expect(
      (
        await bob.agent
          .put(`/api/lolgram/users/${alice.user.id}`)
          .send({ username: makeName(), bio: '' })
      ).status,
    ).toBe(403);
    expect(
      (
        await request(server.url)
          .put(`/api/lolgram/users/${alice.user.id}`)
          .send({ username: makeName(), bio: '' })
      ).status,
    ).toBe(401);
    const tooLong = await alice.agent
      .put(`/api/lolgram/users/${alice.user.id}`)
      .send({ username: newName, bio: 'x'.repeat(151) });
    expect(tooLong.status).toBe(400);
    const taken = await alice.agent
      .put(`/api/lolgram/users/${alice.user.id}`)
      .send({ username: bob.user.username, bio: '' });
    expect(taken.status).toBe(409);
  });

  it('reserves the wallet_ prefix, in any case, for wallet accounts: sign-up and rename answer 400', async () => {
    for (const username of ['wallet_AbCdEfGh', 'WALLET_abcdefgh', 'Wallet_x']) {
      const res = await request(server.url)
        .post('/api/lolgram/users/create')
        .send({ username, password: 'long enough' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Usernames starting with wallet_ are reserved for wallet accounts',
      });
    }
    const { agent, user } = await makeAccount(server.url);
    const rename = await agent
      .put(`/api/lolgram/users/${user.id}`)
      .send({ username: 'Wallet_9xYz1234', bio: '' });
    expect(rename.status).toBe(400);
    expect(rename.body.error).toMatch(/reserved for wallet accounts/);
    expect((await request(server.url).get(`/api/lolgram/users/${user.id}`)).body.username).toBe(
      user.username,
    );
  });

  it('refuses a rename to a name listed in ADMIN_USERNAMES, in any case, as reserved', async () => {
    const { agent, user } = await makeAccount(server.url);
    for (const username of ['chief_one', 'CHIEF_TWO']) {
      const res = await agent.put(`/api/lolgram/users/${user.id}`).send({ username, bio: '' });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/^This username is reserved for an admin/);
    }
    const { rows } = await server.db.pool.query(
      'SELECT username, role FROM lolgram_users WHERE id = $1',
      [user.id],
    );
    expect(rows[0]).toEqual({ username: user.username, role: 'user' });
  });

  it('never makes an admin at sign-up: a listed name is refused, any other is a plain user', async () => {
    const listed = await request(server.url)
      .post('/api/lolgram/users/create')
      .send({ username: 'Chief_Two', password: 'correct horse battery' });
    expect(listed.status).toBe(409);
    expect(listed.body.error).toContain('npm run admin -- create Chief_Two');
    const plain = await makeAccount(server.url);
    const { rows } = await server.db.pool.query('SELECT role FROM lolgram_users WHERE id = $1', [
      plain.user.id,
    ]);
    expect(rows[0].role).toBe('user');
  });
});
