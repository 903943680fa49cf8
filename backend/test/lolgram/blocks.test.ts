import {
  blockedUserSchema,
  blockStateSchema,
  errorBodySchema,
  lolgramUserSchema,
  locatedCountSchema,
  messages,
  postSchema,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BlocksRepository } from '../../src/lolgram/relations/blocks-repository';
import { expectAnswer } from '../helpers/answers';
import { storageModes } from '../game/modes';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount, type Account } from './builders';
import { makeAdmin } from './moderation/builders';
import { makeVisiblePost } from './post-checks';

const LOCATION = JSON.stringify({ name: 'Cardiff', lat: 0, lng: 0 });

describe.each(storageModes)('LOLGram blocking (%s storage)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const block = (who: Account, target: string, on = true) =>
    on
      ? who.agent.post(`/api/lolgram/users/${target}/block`)
      : who.agent.delete(`/api/lolgram/users/${target}/block`);
  const follow = (who: Account, target: Account) =>
    who.agent.post(`/api/lolgram/users/${target.user.id}/follow`).send({ followerId: who.user.id });
  const profile = async (who: Account) =>
    expectAnswer(
      lolgramUserSchema,
      (await request(server.url).get(`/api/lolgram/users/${who.user.id}`)).body,
    );
  const follows = async (a: Account, b: Account) =>
    (await request(server.url).get(`/api/lolgram/users/${a.user.id}/following/${b.user.id}`)).body
      .following as boolean;

  it('blocks and unblocks idempotently, never oneself; only the blocker is told of it', async () => {
    const [alice, bob] = [await makeAccount(server.url), await makeAccount(server.url)];
    for (let i = 0; i < 2; i += 1) {
      expect(expectAnswer(blockStateSchema, (await block(alice, bob.user.id)).body)).toEqual({
        blocked: true,
      });
    }
    const status = async (who: Account, target: Account) =>
      expectAnswer(
        blockStateSchema,
        (await who.agent.get(`/api/lolgram/users/${target.user.id}/block`)).body,
      );
    expect(await status(alice, bob)).toEqual({ blocked: true });
    // Bob asks about Alice: he has not blocked her, and nothing says she blocked him.
    expect(await status(bob, alice)).toEqual({ blocked: false });

    const self = await block(alice, alice.user.id);
    expect(self.status).toBe(400);
    expectAnswer(errorBodySchema, self.body);
    expect((await block(alice, 'not-an-id')).status).toBe(404);
    expect((await block(alice, 'not-an-id', false)).status).toBe(404);
    expect((await alice.agent.get('/api/lolgram/users/not-an-id/block')).status).toBe(404);
    // Nobody has that id: nobody to block, and nothing blocked to take back.
    const nobody = crypto.randomUUID();
    expect((await block(alice, nobody)).body).toEqual({ error: messages.userNotFound });
    expect((await block(alice, nobody, false)).body).toEqual({ blocked: false });
    for (const method of ['get', 'post', 'delete'] as const) {
      const res = await request(server.url)[method](`/api/lolgram/users/${bob.user.id}/block`);
      expect(res.status).toBe(401);
    }

    for (let i = 0; i < 2; i += 1) {
      expect((await block(alice, bob.user.id, false)).body).toEqual({ blocked: false });
    }
    expect(await status(alice, bob)).toEqual({ blocked: false });
  });

  it('ends the follows both ways with exact counts, and refuses follows and LOLs either way', async () => {
    const [alice, bob] = [await makeAccount(server.url), await makeAccount(server.url)];
    const alicesPost = await makeVisiblePost(alice);
    const bobsPost = await makeVisiblePost(bob);
    expect((await follow(alice, bob)).status).toBe(200);
    expect((await follow(bob, alice)).status).toBe(200);
    expect((await bob.agent.post(`/api/lolgram/posts/${alicesPost.id}/lol`)).status).toBe(200);
    expect((await profile(alice)).followerCount).toBe(1);

    expect((await block(alice, bob.user.id)).status).toBe(200);
    expect(await follows(alice, bob)).toBe(false);
    expect(await follows(bob, alice)).toBe(false);
    for (const who of [alice, bob]) {
      expect(await profile(who)).toMatchObject({ followerCount: 0, followingCount: 0 });
    }

    // The same words both ways, and none of them says "block".
    for (const [who, target] of [
      [bob, alice],
      [alice, bob],
    ]) {
      const refused = await follow(who, target);
      expect(refused.status).toBe(403);
      expect(expectAnswer(errorBodySchema, refused.body).error).toBe(messages.cannotFollow);
    }
    for (const [who, post] of [
      [bob, alicesPost],
      [alice, bobsPost],
    ] as const) {
      const refused = await who.agent.post(`/api/lolgram/posts/${post.id}/lol`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: messages.cannotLol });
    }
    expect(`${messages.cannotFollow} ${messages.cannotLol}`).not.toMatch(/block/i);
    // Taking back what one did before stays possible.
    const unlol = await bob.agent.delete(`/api/lolgram/posts/${alicesPost.id}/lol`);
    expect(unlol.body).toEqual({ lolCount: 0, isLiked: false });
    expect(
      (
        await bob.agent
          .delete(`/api/lolgram/users/${alice.user.id}/follow`)
          .send({ followerId: bob.user.id })
      ).body,
    ).toEqual({ following: false, followerCount: 0 });
    for (const who of [alice, bob]) {
      expect(await profile(who)).toMatchObject({ followerCount: 0, followingCount: 0 });
    }

    expect((await block(alice, bob.user.id, false)).status).toBe(200);
    expect((await follow(bob, alice)).status).toBe(200);
    expect((await bob.agent.post(`/api/lolgram/posts/${alicesPost.id}/lol`)).status).toBe(200);
  });

  it('keeps the counts exact when blocks race follows', async () => {
    const star = await makeAccount(server.url);
    const fans = await Promise.all(Array.from({ length: 10 }, () => makeAccount(server.url)));
    const answers = await Promise.all(
      fans.flatMap((fan, i) => [
        follow(fan, star),
        follow(star, fan),
        ...(i % 2 === 0 ? [block(star, fan.user.id)] : []),
        ...(i % 3 === 0 ? [block(fan, star.user.id)] : []),
      ]),
    );
    // Each is done or refused (a follow after a block): none fails on the race (a deadlock).
    expect(answers.map((answer) => answer.status).filter((status) => status >= 500)).toEqual([]);
    let followers = 0;
    let following = 0;
    for (const fan of fans) {
      followers += Number(await follows(fan, star));
      following += Number(await follows(star, fan));
      const fanNow = await profile(fan);
      expect(fanNow.followingCount).toBe(Number(await follows(fan, star)));
      expect(fanNow.followerCount).toBe(Number(await follows(star, fan)));
    }
    expect(await profile(star)).toMatchObject({
      followerCount: followers,
      followingCount: following,
    });
    // Nobody blocked either way follows the other.
    for (const [i, fan] of fans.entries()) {
      if (i % 2 === 0 || i % 3 === 0) {
        expect([await follows(fan, star), await follows(star, fan)]).toEqual([false, false]);
      }
    }
  });

  it('leaves each out of the other’s feed and map, and nobody else’s', async () => {
    const [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => makeAccount(server.url)));
    const alicesPost = await makeVisiblePost(alice, { location: LOCATION });
    const bobsPost = await makeVisiblePost(bob, { location: LOCATION });
    const carolsPost = await makeVisiblePost(carol, { location: LOCATION });
    const ids = (body: unknown) =>
      z
        .array(postSchema)
        .parse(body)
        .map((p) => p.id);
    const read = async (who: Account | null, path: string) =>
      (await (who ? who.agent : request(server.url)).get(path)).body as unknown;
    const mine = [alicesPost.id, bobsPost.id, carolsPost.id];
    const seen = async (who: Account | null, path: string) =>
      ids(await read(who, path)).filter((id) => mine.includes(id));
    const countFor = async (who: Account | null) =>
      expectAnswer(locatedCountSchema, await read(who, '/api/lolgram/posts/located/count')).count;
    const countsBefore = await Promise.all([alice, carol, null].map(countFor));

    expect((await block(alice, bob.user.id)).status).toBe(200);
    for (const path of ['/api/lolgram/posts/feed', '/api/lolgram/posts/located']) {
      expect(await seen(alice, path)).toEqual([carolsPost.id, alicesPost.id]);
      expect(await seen(bob, path)).toEqual([carolsPost.id, bobsPost.id]);
      expect(await seen(carol, path)).toEqual([carolsPost.id, bobsPost.id, alicesPost.id]);
      expect(await seen(null, path)).toEqual([carolsPost.id, bobsPost.id, alicesPost.id]);
    }
    // The next pages too: after Carol's post comes Alice's own, not Bob's.
    const after = `before=${encodeURIComponent(carolsPost.cursor)}&limit=1`;
    expect(await seen(alice, `/api/lolgram/posts/feed?${after}`)).toEqual([alicesPost.id]);
    expect(await seen(alice, `/api/lolgram/posts/located?${after}`)).toEqual([alicesPost.id]);
    expect(await Promise.all([alice, carol, null].map(countFor))).toEqual([
      countsBefore[0] - 1,
      countsBefore[1],
      countsBefore[2],
    ]);
    // Profiles and post pages stay readable, as they are to anyone signed out.
    expect((await bob.agent.get(`/api/lolgram/posts/${alicesPost.id}`)).status).toBe(200);
    expect(ids(await read(bob, `/api/lolgram/posts/user/${alice.user.id}`))).toEqual([
      alicesPost.id,
    ]);
  });

  it('lists one’s block list latest first, a page at a time; anyone else’s is not found', async () => {
    const owner = await makeAccount(server.url);
    const others = await Promise.all([1, 2, 3].map(() => makeAccount(server.url)));
    for (const other of others) expect((await block(owner, other.user.id)).status).toBe(200);
    const path = `/api/lolgram/users/${owner.user.id}/blocked`;
    const list = async (query = '') => {
      const res = await owner.agent.get(`${path}${query}`);
      expect(res.status).toBe(200);
      return expectAnswer(z.array(blockedUserSchema), res.body);
    };
    expect((await list()).map((u) => u.username)).toEqual(
      [...others].reverse().map((o) => o.user.username),
    );
    const first = await list('?limit=2');
    expect(first.map((u) => u.id)).toEqual([others[2].user.id, others[1].user.id]);
    const next = await list(`?limit=2&before=${encodeURIComponent(first[1].cursor)}`);
    expect(next.map((u) => u.id)).toEqual([others[0].user.id]);
    for (const query of ['?limit=0', '?limit=51', '?before=nonsense']) {
      expect((await owner.agent.get(`${path}${query}`)).status).toBe(400);
    }

    expect((await request(server.url).get(path)).status).toBe(401);
    // The blocked, another user and an admin: none can read it, nor learn that it exists.
    for (const who of [others[0], await makeAccount(server.url), await makeAdmin(server)]) {
      const res = await who.agent.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Not found' });
    }
    // Nor change it: blocking and unblocking act for the viewer alone.
    expect((await block(others[0], owner.user.id, false)).status).toBe(200);
    expect(await list()).toHaveLength(3);
  });

  it('gives a blocked user no more than anyone else over the blocker’s posts and lists', async () => {
    const [alice, bob] = [await makeAccount(server.url), await makeAccount(server.url)];
    const post = await makeVisiblePost(alice);
    expect((await block(alice, bob.user.id)).status).toBe(200);
    for (const list of ['saved', 'blocked']) {
      const res = await bob.agent.get(`/api/lolgram/users/${alice.user.id}/${list}`);
      expect([res.status, res.body]).toEqual([404, { error: 'Not found' }]);
    }
    const edit = await bob.agent.patch(`/api/lolgram/posts/${post.id}`).send({ caption: 'mine' });
    expect(edit.status).toBe(403);
    expect((await bob.agent.delete(`/api/lolgram/posts/${post.id}`)).status).toBe(403);
    // A save is a private bookmark that tells the author nothing: it stays possible.
    expect((await bob.agent.post(`/api/lolgram/posts/${post.id}/save`)).body).toEqual({
      isSaved: true,
    });
  });

  it('tells whether two users blocked one another, either way (for comments and notifications)', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => makeAccount(server.url)));
    expect((await block(a, b.user.id)).status).toBe(200);
    const blocks = new BlocksRepository(server.db.pool);
    expect(await blocks.isBlockedEitherWay(a.user.id, b.user.id)).toBe(true);
    expect(await blocks.isBlockedEitherWay(b.user.id, a.user.id)).toBe(true);
    expect(await blocks.isBlockedEitherWay(a.user.id, c.user.id)).toBe(false);
    expect(await blocks.isBlockedEitherWay(c.user.id, b.user.id)).toBe(false);
  });
});
