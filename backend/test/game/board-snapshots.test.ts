import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SEASON_CALENDAR, gameEvents, type BoardsPush } from '@tapgram/shared';
import { Redis } from 'ioredis';
import { Server as SocketServer } from 'socket.io';
import { io as connectClient, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { Metrics } from '../../src/core/metrics';
import { PostgresGameStore } from '../../src/game/postgres-store';
import { LocalPushClaims, type PushClaims } from '../../src/game/push-claims';
import { RedisPushClaims } from '../../src/game/redis-push';
import { gameKeys } from '../../src/game/redis-keys';
import { RedisGameStore } from '../../src/game/redis-store';
import { gameRepositories } from '../../src/game/repositories';
import { SeasonsRepository } from '../../src/game/seasons/seasons-repository';
import { SeasonsService } from '../../src/game/seasons/seasons-service';
import { GameService, type LeaderboardSnapshot } from '../../src/game/service';
import { attachGameChannel } from '../../src/game/socket';
import type { GameStore } from '../../src/game/store';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix, TEST_REDIS_URL, uniqueName } from '../../test-support/services';
import { makeUsername } from './builders';
import { nextBoard } from './socket-client';
import { storageModes } from './modes';

const CROWD = 25;

/** The game's own service, counting its reads of the whole boards. */
class CountedService extends GameService {
  reads = 0;

  override snapshot(limit: number): Promise<LeaderboardSnapshot> {
    this.reads += 1;
    return super.snapshot(limit);
  }
}

/**
 * Push claims whose answer is lost once, after the claim was made, for a change at or after
 * `loseFrom`: as a command that timed out in a stalled process while Redis ran it.
 */
class ClaimsLosingAnAnswer implements PushClaims {
  loseFrom = Infinity;
  lost: number[] = [];
  /** The last version pushed. */
  done: number | null = null;

  constructor(private readonly inner: PushClaims) {}

  async claim(): Promise<number | null> {
    const claimed = await this.inner.claim();
    if (claimed !== null && claimed >= this.loseFrom) {
      this.loseFrom = Infinity;
      this.lost.push(claimed);
      throw new Error('Command timed out');
    }
    return claimed;
  }

  async pushed(version: number) {
    await this.inner.pushed(version);
    this.done = version;
  }

  release() {
    return this.inner.release();
  }

  version() {
    return this.inner.version();
  }
}

/**
 * The game channel on a Socket.IO server of its own, over the real stores of `mode` (the test
 * server lends its database), so that the test can count what the channel reads.
 */
describe.each(storageModes)('boards sent to new sockets (%s mode)', (mode) => {
  let server: TestServer;
  let store: GameStore;
  let service: CountedService;
  let redis: Redis | undefined;
  let channel: { url: string; close: () => Promise<void> };
  let claims: ClaimsLosingAnAnswer;
  // A prefix of its own: the test server's loops work on the server's prefix.
  const prefix = uniqueName('tgtest');
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer({ mode });
    const repo = gameRepositories(server.db.pool);
    const rate = { perSecond: 1000, burst: 1000 };
    let inner: PushClaims;
    if (mode === 'redis') {
      redis = new Redis(TEST_REDIS_URL);
      store = new RedisGameStore({
        redis,
        repos: repo,
        rateLimit: rate,
        logger: createLogger('silent'),
        prefix,
      });
      inner = new RedisPushClaims(redis, gameKeys(prefix));
    } else {
      const local = new LocalPushClaims();
      store = new PostgresGameStore(repo, rate, () => local.changed());
      inner = local;
    }
    claims = new ClaimsLosingAnAnswer(inner);
    const metrics = new Metrics();
    service = new CountedService({ store, metrics });
    const httpServer = http.createServer();
    const io = new SocketServer(httpServer, { serveClient: false });
    const seasons = new SeasonsService({
      store,
      repo: new SeasonsRepository(server.db.pool),
      pool: server.db.pool,
      calendar: DEFAULT_SEASON_CALENDAR,
    });
    const detach = attachGameChannel(io, {
      service,
      seasons,
      claims,
      secret: 'test-secret-test-secret-test-secret-0123',
      logger: createLogger('silent'),
      metrics,
      allowance: rate,
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    channel = {
      url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`,
      close: async () => {
        await detach();
        await new Promise<void>((resolve) => io.close(() => resolve()));
      },
    };
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await channel?.close();
    await store?.close();
    redis?.disconnect();
    if (mode === 'redis') await dropRedisPrefix(prefix);
    await server?.stop();
  });

  /** A client that follows no detail, and the first boards it is sent. */
  function boardsClient(): { socket: Socket; first: Promise<BoardsPush> } {
    const socket = connectClient(channel.url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    return { socket, first: new Promise((resolve) => socket.once(gameEvents.boards, resolve)) };
  }

  const firstBoards = () => boardsClient().first;

  async function playerWith(points: number) {
    const user = await service.createUser(makeUsername(), 'FR', null);
    const session = await service.createSession(user.id, user.id);
    await service.tap(user.id, { sessionId: session.id, count: points });
    return user;
  }

  it('sends a crowd of sockets arriving together the boards from one read, not one each', async () => {
    const player = await playerWith(3);
    const readsBefore = service.reads;
    const boards = await Promise.all(Array.from({ length: CROWD }, () => firstBoards()));
    for (const { users } of boards) {
      expect(users).toContainEqual(expect.objectContaining({ id: player.id, totalPoints: 3 }));
    }
    // One read at most (the push of the new player's taps may have made it already).
    expect(service.reads - readsBefore).toBeLessThanOrEqual(1);
  });

  it('pushes a change whose claim ran but whose answer was lost, once the claim expires', async () => {
    const { socket: watcher, first } = boardsClient();
    await first;
    const user = await service.createUser(makeUsername(), 'FR', null);
    const session = await service.createSession(user.id, user.id);
    // Once every change so far is pushed, the next claim is the taps': it runs, and its answer
    // is lost.
    await expect.poll(async () => (await claims.version()) === claims.done).toBe(true);
    claims.loseFrom = (await claims.version()) + 1;
    const pushed = nextBoard(watcher, 'users', (users) =>
      users.some((u) => u.id === user.id && u.totalPoints === 7),
    );
    await service.tap(user.id, { sessionId: session.id, count: 7 });
    await pushed;
    expect(claims.lost).toHaveLength(1);
  });

  it('reads the boards again for a socket that arrives after they changed', async () => {
    await firstBoards();
    const player = await playerWith(5);
    const { users } = await firstBoards();
    expect(users).toContainEqual(expect.objectContaining({ id: player.id, totalPoints: 5 }));
  });
});
