import { LOLGRAM_SESSION_LIFETIME_MS } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SOCKET_MESSAGE_BURST,
  SOCKET_REFUSALS_BEFORE_DISCONNECT,
} from '../../src/core/socket-limit';
import { redisAvailable } from '../../test-support/availability';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { TEST_REDIS_URL } from '../../test-support/services';
import {
  makeAccount,
  makeJpeg,
  makePost,
  sessionCookieOf,
  type Account,
} from '../lolgram/builders';
import { makeAdmin } from '../lolgram/moderation/builders';
import { connectLive, liveClients, type Push } from './live-client';

const SECRET = 'test-secret-test-secret-test-secret-0123';
const PROFANE = 'this meme is fucking hilarious';
// A profane caption is held for a moderator.
const HOLD_PROFANITY = { MODERATION_HOLD_THRESHOLD: '0.55' };

/** Posts a caption the check holds; resolves with the post's id. */
async function heldPost(author: Account): Promise<string> {
  const res = await makePost(author, await makeJpeg(), { caption: PROFANE });
  if (res.status !== 201) throw new Error(`post: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** Approves the queue item of a post, as an admin on the server at `url` would. */
async function approve(admin: Account, postId: string): Promise<void> {
  const { body: queue } = await admin.agent.get('/api/lolgram/admin/moderation/queue');
  const item = (queue as { id: string; contentId: string }[]).find((i) => i.contentId === postId);
  if (!item) throw new Error(`no queue item for ${postId}`);
  const res = await admin.agent
    .post(`/api/lolgram/admin/moderation/${item.id}`)
    .send({ decision: 'approved' });
  if (res.status !== 200) throw new Error(`decide: ${res.status} ${res.text}`);
}

/** Signs the same account in from a second browser: a session of its own. */
async function signInAgain(url: string, account: Account): Promise<Account> {
  const agent = request.agent(url);
  const res = await agent
    .post('/api/lolgram/users/login')
    .send({ username: account.user.username, password: account.password });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.text}`);
  return { ...account, agent, cookie: sessionCookieOf(res) };
}

describe('the signed-in live channel', () => {
  let server: TestServer;
  let admin: Account;
  // The channel's clock (session expiry, the message limit) stands still unless a test moves it.
  let now = Date.now();
  const connect = liveClients();
  beforeAll(async () => {
    server = await startTestServer({ env: HOLD_PROFANITY, now: () => now });
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a handshake without a session cookie, or with one that does not sign in', async () => {
    await expect(connect(server.url)).rejects.toThrow('Not signed in');
    await expect(connect(server.url, 'lg_session=made-up')).rejects.toThrow('Not signed in');
  });

  it('refuses a session that ended or expired', async () => {
    const signedOut = await makeAccount(server.url);
    await signedOut.agent.post('/api/lolgram/users/logout').expect(204);
    await expect(connect(server.url, signedOut.cookie)).rejects.toThrow('Not signed in');

    const expired = await makeAccount(server.url);
    await server.db.pool.query(
      "UPDATE auth_sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [expired.user.id],
    );
    await expect(connect(server.url, expired.cookie)).rejects.toThrow('Not signed in');
  });

  it("refuses another site's page, like every write, and takes this site's", async () => {
    const account = await makeAccount(server.url);
    for (const Origin of ['https://evil.example', 'null']) {
      await expect(connect(server.url, account.cookie, { Origin })).rejects.toThrow();
    }
    const own = await connect(server.url, account.cookie, { Origin: server.url });
    expect(own.socket.connected).toBe(true);
  });

  it("pushes a post's moderation to its author only, on every socket they have", async () => {
    const [alice, bob] = [await makeAccount(server.url), await makeAccount(server.url)];
    const aliceTabs = [
      await connect(server.url, alice.cookie),
      await connect(server.url, alice.cookie),
    ];
    const bobTab = await connect(server.url, bob.cookie);

    const alicePost = await heldPost(alice);
    for (const tab of aliceTabs) {
      expect(await tab.next('moderation', (p) => p.status === 'held')).toEqual({
        contentType: 'post',
        contentId: alicePost,
        postId: alicePost,
        status: 'held',
        previous: 'checking',
        edit: false,
      });
    }
    await approve(admin, alicePost);
    for (const tab of aliceTabs) {
      expect(await tab.next('moderation', (p) => p.status === 'visible')).toEqual({
        contentType: 'post',
        contentId: alicePost,
        postId: alicePost,
        status: 'visible',
        previous: 'held',
        edit: false,
      });
    }
    // Bob's own push comes after Alice's: had hers reached him, it would be in his list by now.
    const bobPost = await heldPost(bob);
    await bobTab.next('moderation', (p) => p.postId === bobPost);
    const moderationPushes = (pushes: Push[]) =>
      pushes.flatMap((push) => (push.event === 'moderation' ? [push.payload.postId] : []));
    expect(moderationPushes(bobTab.pushes)).toEqual([bobPost]);
    for (const tab of aliceTabs) {
      expect(new Set(moderationPushes(tab.pushes))).toEqual(new Set([alicePost]));
    }
  });

  it("pushes a comment's check outcome and a moderator's decision to its author, as a post's", async () => {
    const [author, commenter] = [await makeAccount(server.url), await makeAccount(server.url)];
    const posted = await makePost(author, await makeJpeg(), { caption: 'fine' });
    const postId = posted.body.id as string;
    await expect
      .poll(async () => (await request(server.url).get(`/api/lolgram/posts/${postId}`)).status)
      .toBe(200);
    const tab = await connect(server.url, commenter.cookie);
    const clean = await commenter.agent
      .post(`/api/lolgram/posts/${postId}/comments`)
      .send({ text: 'nice one' })
      .expect(201);
    const rude = await commenter.agent
      .post(`/api/lolgram/posts/${postId}/comments`)
      .send({ text: PROFANE })
      .expect(201);
    const outcome = (contentId: string, previous: string, status: string) => ({
      contentType: 'comment',
      contentId,
      postId,
      status,
      previous,
      edit: false,
    });
    expect(await tab.next('moderation', (p) => p.contentId === clean.body.id)).toEqual(
      outcome(clean.body.id, 'checking', 'visible'),
    );
    expect(await tab.next('moderation', (p) => p.contentId === rude.body.id)).toEqual(
      outcome(rude.body.id, 'checking', 'held'),
    );
    const { body: queue } = await admin.agent.get('/api/lolgram/admin/moderation/queue');
    const item = (queue as { id: string; contentId: string }[]).find(
      (i) => i.contentId === rude.body.id,
    );
    await admin.agent
      .post(`/api/lolgram/admin/moderation/${item?.id}`)
      .send({ decision: 'rejected' })
      .expect(200);
    expect(await tab.next('moderation', (p) => p.status === 'rejected')).toEqual(
      outcome(rude.body.id, 'held', 'rejected'),
    );
  });

  it("ends a session's sockets when it signs out, and only that session's", async () => {
    const account = await makeAccount(server.url);
    const second = await signInAgain(server.url, account);
    const leaving = await connect(server.url, account.cookie);
    const staying = await connect(server.url, second.cookie);
    await account.agent.post('/api/lolgram/users/logout').expect(204);
    expect(await leaving.ended).toBe('io server disconnect');
    // The other browser still hears about the user's posts.
    const postId = await heldPost(second);
    await staying.next('moderation', (p) => p.postId === postId);
    expect(staying.socket.connected).toBe(true);
  });

  it('ends a socket when its session expires', async () => {
    const account = await makeAccount(server.url);
    const saved = now;
    try {
      // The session's last moment has come by the channel's clock (the database still takes it).
      now = Date.now() + LOLGRAM_SESSION_LIFETIME_MS;
      const client = await connect(server.url, account.cookie);
      expect(await client.ended).toBe('io server disconnect');
    } finally {
      now = saved;
    }
  });

  it('limits the messages of a live socket as it limits the game socket', async () => {
    const account = await makeAccount(server.url);
    const client = await connect(server.url, account.cookie);
    for (let i = 0; i < SOCKET_MESSAGE_BURST; i += 1) client.socket.emit('no-such-event', i);
    expect(await client.socket.timeout(10_000).emitWithAck('no-such-event', 'x')).toMatchObject({
      ok: false,
      status: 429,
    });
    for (let i = 0; i < SOCKET_REFUSALS_BEFORE_DISCONNECT; i += 1) {
      client.socket.emit('no-such-event', i);
    }
    expect(await client.ended).toBe('io server disconnect');
  });
});

describe('a server that stops', () => {
  it('ends its live sockets as a dropped connection ends (the client reconnects), and stops', async () => {
    const server = await startTestServer();
    const account = await makeAccount(server.url);
    const client = await connectLive(server.url, account.cookie);
    await server.stop();
    expect(await client.ended).toBe('transport close');
  });
});

describe.runIf(await redisAvailable())('the live channel across two server processes', () => {
  let a: TestServer;
  let b: ServerProcess;
  const connect = liveClients();
  beforeAll(async () => {
    a = await startTestServer({
      mode: 'redis',
      env: { ...HOLD_PROFANITY, SESSION_SECRET: SECRET },
    });
    b = await spawnServer({
      DATABASE_URL: a.databaseUrl ?? '',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: a.redisPrefix,
      SESSION_SECRET: SECRET,
      MODERATION_IMAGE_CHECK: 'off',
      ...HOLD_PROFANITY,
    });
  });
  afterAll(async () => {
    if (b) expect(await b.stop()).toBe(0);
    await a?.stop();
  });

  it('reaches an author connected to one process with a decision made on the other', async () => {
    const admin = await makeAdmin(a);
    const author = await makeAccount(a.url);
    const onB = await connect(b.url, author.cookie);
    const postId = await heldPost(author);
    await onB.next('moderation', (p) => p.postId === postId && p.status === 'held');
    await approve(admin, postId);
    expect(await onB.next('moderation', (p) => p.status === 'visible')).toEqual({
      contentType: 'post',
      contentId: postId,
      postId,
      status: 'visible',
      previous: 'held',
      edit: false,
    });
  });

  it('ends the sockets held by the other process when the session signs out', async () => {
    const account = await makeAccount(a.url);
    const onB = await connect(b.url, account.cookie);
    await account.agent.post('/api/lolgram/users/logout').expect(204);
    expect(await onB.ended).toBe('io server disconnect');
  });
});
