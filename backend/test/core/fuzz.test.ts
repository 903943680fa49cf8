import http from 'node:http';
import { walletUsername } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAdmin } from '../lolgram/moderation/builders';
import { storageModes } from '../game/modes';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeTelegramUser, signInitData, telegramEnv } from '../../test-support/telegram';
import { makeAccount, makeJpeg, makeName, TestWallet, type Account } from '../lolgram/builders';
import { makeVisiblePost } from '../lolgram/post-checks';
import { describe as describeRequest, problemWith, send } from './fuzz/client';
import { CONTRACT } from './fuzz/contract';
import { Random } from './fuzz/random';
import { buildRequest, type FuzzRequest } from './fuzz/requests';
import type { Known } from './fuzz/values';

/**
 * Hostile input to every endpoint of the contract, as anonymous, as a signed-in user, as an admin
 * and with forged cookies: none may answer 5xx, and no answer may show a stack, a path or SQL.
 * The inputs come from a seeded generator: a failure names the request that caused it, and the
 * same seed sends it again.
 */
// FUZZ_SEED explores other inputs, FUZZ_REQUESTS more of them; the suite always runs these.
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_901);
// About thirty to each endpoint in each storage mode: the first half of the 4,000 once sent.
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2_000);
const CONCURRENCY = 6;
/** Wallet sign-in requests issued before the run: each may be spent once. */
const PROOFS = 40;

const cookieOf = (res: request.Response) =>
  ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

function expectStatus(res: request.Response, status: number): request.Response {
  if (res.status !== status) throw new Error(`setup: ${res.status} ${res.text}`);
  return res;
}

/** A player, a LOLGram user, an admin, a post of the admin's that the user reported, a wallet. */
async function seed(server: TestServer) {
  const api = () => request(server.url);
  const signIn = async (account: Account) =>
    cookieOf(
      expectStatus(
        await api()
          .post('/api/lolgram/users/login')
          .send({ username: account.user.username, password: account.password }),
        200,
      ),
    );
  const player = expectStatus(
    await api()
      .post('/api/users')
      .send({ username: makeName('p'), country: 'US' }),
    201,
  );
  const playerCookie = cookieOf(player);
  const session = expectStatus(
    await api().post('/api/sessions').set('cookie', playerCookie).send({ userId: player.body.id }),
    201,
  );
  const user = await makeAccount(server.url);
  const admin = await makeAdmin(server);
  const userCookie = `${playerCookie}; ${await signIn(user)}`;
  const adminCookie = await signIn(admin);
  const jpeg = await makeJpeg({ width: 64, height: 48 });
  const post = await makeVisiblePost(admin, {}, jpeg);
  const usersPost = await makeVisiblePost(user, {}, jpeg);
  expectStatus(
    await user.agent.post(`/api/lolgram/posts/${post.id}/report`).send({ reason: 'spam' }),
    201,
  );
  const queue = expectStatus(await admin.agent.get('/api/lolgram/admin/moderation/queue'), 200);
  const comment = expectStatus(
    await user.agent.post(`/api/lolgram/posts/${post.id}/comments`).send({ text: 'first' }),
    201,
  );
  // A reply answers a public comment: its automatic check has ended.
  await expect
    .poll(async () => {
      const thread = await api().get(`/api/lolgram/posts/${post.id}/comments`);
      return (thread.body as { comments: { id: string }[] }).comments.length;
    })
    .toBe(1);
  const reply = expectStatus(
    await admin.agent
      .post(`/api/lolgram/posts/${post.id}/comments`)
      .send({ text: 'a reply', parentId: comment.body.id }),
    201,
  );
  const wallet = new TestWallet();
  const proofs = [];
  for (let i = 0; i < PROOFS; i += 1) {
    const nonce = await api()
      .post('/api/lolgram/auth/wallet/nonce')
      .send({ address: wallet.address });
    proofs.push(wallet.sign(expectStatus(nonce, 200).body));
  }
  // The wallet has an account, so that its other proofs sign in.
  expectStatus(
    await api()
      .post('/api/lolgram/users/create')
      .send({
        username: walletUsername(wallet.address),
        walletAddress: wallet.address,
        proof: proofs.pop(),
      }),
    201,
  );
  const known: Known = {
    playerId: player.body.id,
    sessionId: session.body.id,
    userIds: [user.user.id, admin.user.id],
    usernames: [user.user.username, admin.user.username],
    postIds: [post.id, usersPost.id],
    commentIds: [comment.body.id, reply.body.id],
    commentCursor: '1.1',
    queueId: queue.body[0].id,
    imageKey: new URL(usersPost.imageUrl, server.url).pathname.replace('/api/lolgram/images/', ''),
    cursor: post.cursor,
    wallet: wallet.address,
    proofs,
    jpeg,
    initData: [
      signInitData(makeTelegramUser()),
      signInitData(makeTelegramUser({ username: 'fuzzed_tg' }), { startParam: 'friend42' }),
      signInitData(makeTelegramUser(), { startParam: 'link-notacode' }),
      signInitData(makeTelegramUser({ first_name: '\u202Eevil' })),
    ],
  };
  return { known, cookies: { user: userCookie, admin: adminCookie } };
}

describe.each(storageModes)('fuzzing the API (%s storage)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      mode,
      env: {
        // Each request comes from its own address through the (trusted) loopback proxy, and the
        // per-player limits are out of reach: the handlers behind the limits are exercised.
        TRUST_PROXY: 'loopback',
        TAP_RATE_PER_SECOND: '1000000',
        TAP_BURST: '1000000',
        MODERATION_REPORTS_PER_HOUR: '1000000',
        COMMENTS_PER_MINUTE: '1000000',
        COMMENTS_PER_POST_PER_MINUTE: '1000000',
        ...telegramEnv(),
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it(`answers ${REQUESTS} hostile requests across the contract without a 5xx or a leak`, async () => {
    const { known, cookies } = await seed(server);
    const random = new Random(SEED);
    const requests: FuzzRequest[] = Array.from({ length: REQUESTS }, (_, i) =>
      buildRequest(CONTRACT[i % CONTRACT.length], random, known, cookies),
    );

    const base = new URL(server.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const reached = new Set<number>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const index = next++;
        const sent = requests[index];
        try {
          const answer = await send(base, agent, sent);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (!answer.text.startsWith('{"error":"No such endpoint'))
            reached.add(index % CONTRACT.length);
          const problem = problemWith(sent, answer);
          if (problem) {
            failures.push(
              `${problem}: ${answer.text.slice(0, 300)}\n${describeRequest(sent, index, SEED)}`,
            );
          }
        } catch (error) {
          failures.push(`no answer (${String(error)})\n${describeRequest(sent, index, SEED)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();

    const summary = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    if (failures.length > 0) {
      console.error(
        `${failures.length} of ${REQUESTS} fuzz requests failed (${mode}); statuses ${summary.join(', ')}\n\n` +
          failures.slice(0, 25).join('\n\n'),
      );
    }
    expect(failures.slice(0, 5)).toEqual([]);
    const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
    expect(answered).toBe(REQUESTS);
    // Every endpoint of the list is one the server has (the list has not drifted from the routes).
    expect(CONTRACT.filter((_, i) => !reached.has(i))).toEqual([]);
    // Limits must not stand in front of the handlers: the run reaches them, and some succeed.
    expect(statuses.get(429) ?? 0).toBeLessThan(REQUESTS * 0.05);
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(REQUESTS * 0.1);
  });
});
