import { followStatusSchema, lolgramUserSchema } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makeAccount } from './builders';

describe('LOLGram follows', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('follows and unfollows idempotently, as oneself only, never oneself', async () => {
    const alice = await makeAccount(server.url);
    const bob = await makeAccount(server.url);
    const follow = (who = alice, followerId = alice.user.id) =>
      who.agent.post(`/api/lolgram/users/${bob.user.id}/follow`).send({ followerId });
    const status = (res: request.Response) => expectAnswer(followStatusSchema, res.body);
    expect(status(await follow())).toEqual({ following: true, followerCount: 1 });
    expect(status(await follow())).toEqual({ following: true, followerCount: 1 });
    expect(
      status(
        await request(server.url).get(
          `/api/lolgram/users/${alice.user.id}/following/${bob.user.id}`,
        ),
      ),
    ).toEqual({ following: true });
    expect((await follow(bob, alice.user.id)).status).toBe(403);
    const self = await alice.agent
      .post(`/api/lolgram/users/${alice.user.id}/follow`)
      .send({ followerId: alice.user.id });
    expect(self.status).toBe(400);
    expect(
      (
        await request(server.url)
          .post(`/api/lolgram/users/${bob.user.id}/follow`)
          .send({ followerId: alice.user.id })
      ).status,
    ).toBe(401);
    const unfollow = await alice.agent
      .delete(`/api/lolgram/users/${bob.user.id}/follow`)
      .send({ followerId: alice.user.id });
    expect(status(unfollow)).toEqual({ following: false, followerCount: 0 });
    const aliceNow = await request(server.url).get(`/api/lolgram/users/${alice.user.id}`);
    expect(expectAnswer(lolgramUserSchema, aliceNow.body).followingCount).toBe(0);
  });

  it('keeps the counts exact under concurrent follows and unfollows', async () => {
    const star = await makeAccount(server.url);
    const fans = await Promise.all(Array.from({ length: 12 }, () => makeAccount(server.url)));
    await Promise.all(
      fans.flatMap((fan) => [
        fan.agent
          .post(`/api/lolgram/users/${star.user.id}/follow`)
          .send({ followerId: fan.user.id }),
        fan.agent
          .post(`/api/lolgram/users/${star.user.id}/follow`)
          .send({ followerId: fan.user.id }),
        star.agent
          .post(`/api/lolgram/users/${fan.user.id}/follow`)
          .send({ followerId: star.user.id }),
      ]),
    );
    await Promise.all(
      fans
        .slice(0, 5)
        .map((fan) =>
          fan.agent
            .delete(`/api/lolgram/users/${star.user.id}/follow`)
            .send({ followerId: fan.user.id }),
        ),
    );
    const starNow = expectAnswer(
      lolgramUserSchema,
      (await request(server.url).get(`/api/lolgram/users/${star.user.id}`)).body,
    );
    expect(starNow.followerCount).toBe(7);
    expect(starNow.followingCount).toBe(12);
    const { rows } = await server.db.pool.query(
      'SELECT count(*)::int AS n FROM follows WHERE following_id = $1',
      [star.user.id],
    );
    expect(rows[0].n).toBe(7);
  });
});
