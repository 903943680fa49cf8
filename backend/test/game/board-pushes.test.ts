import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_SEASON_CALENDAR,
  gameEvents,
  type BoardsPush,
  type BoardsSnapshot,
  type SeasonBoardsSnapshot,
} from '@tapgram/shared';
import { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { startBoardPushes } from '../../src/game/board-pushes';
import type { PushClaims } from '../../src/game/push-claims';

type PushDeps = Parameters<typeof startBoardPushes>[1];

/** Boards of one player and one country, each at `points`. */
const boardsAt = (points: number) => ({
  users: [{ id: 'u1', username: 'alice', totalPoints: points, rank: 1 }],
  countries: [{ country: 'GB', totalPoints: points }],
});

describe('the board pushes of one process', () => {
  const closers: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** The pushes on a server of their own, and a client of it. */
  async function serve(deps: Pick<PushDeps, 'service' | 'seasons' | 'claims'>) {
    const server = http.createServer();
    const io = new Server(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const pushes = startBoardPushes(io, {
      ...deps,
      logger: createLogger('silent'),
      metrics: { leaderboardPushed: () => undefined },
    });
    closers.push(async () => {
      await pushes.stop();
      await io.close();
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = () => {
      const socket = connect(url, { transports: ['websocket'], forceNew: true });
      closers.push(() => {
        socket.disconnect();
      });
      return socket;
    };
    return { io, pushes, client };
  }

  it('read the change counter once for a tick that reads both the all-time and the season boards', async () => {
    // What the pushes asked of the store, in order.
    const asked: string[] = [];
    const { io, pushes, client } = await serve({
      claims: {
        claim: async () => false,
        release: async () => undefined,
        version: async () => {
          asked.push('version');
          return 7;
        },
      },
      service: {
        snapshot: async () => {
          asked.push('boards');
          return { ...boardsAt(5), milestone: { usersOver100k: 0 } };
        },
      },
      seasons: {
        calendar: DEFAULT_SEASON_CALENDAR,
        boards: async () => {
          asked.push('season');
          return { season: 3, ...boardsAt(2) };
        },
      },
    });
    // Both feeds wait for this socket's snapshot from the same moment: one tick reads both.
    io.on('connection', (socket) => pushes.welcome(socket, 'top10', 'top10'));
    const socket = client();
    const allTime = new Promise<BoardsSnapshot>((resolve) =>
      socket.once(gameEvents.boardsSnapshot, resolve),
    );
    const season = new Promise<SeasonBoardsSnapshot>((resolve) =>
      socket.once(gameEvents.seasonSnapshot, resolve),
    );
    expect((await allTime).users[0].totalPoints).toBe(5);
    expect((await season).users[0].totalPoints).toBe(2);

    // Up to the reads of both boards, the counter was read once (it was four times: each feed's
    // check, and each feed's boards before their read).
    const bothRead = Math.max(asked.indexOf('boards'), asked.indexOf('season'));
    expect(asked.slice(0, bothRead + 1).filter((step) => step === 'version')).toHaveLength(1);
  });

  it('push boards read after the claim, though the tick read the counter before a change', async () => {
    // The store: a tap lands while the claim is under way, and the claim takes it.
    let points = 1;
    let claimed = false;
    const claims: PushClaims = {
      claim: async () => {
        if (claimed) return false;
        await new Promise((resolve) => setImmediate(resolve));
        points += 1;
        claimed = true;
        return true;
      },
      release: async () => {
        claimed = false;
      },
      version: async () => points,
    };
    const { io, pushes, client } = await serve({
      claims,
      service: { snapshot: async () => ({ ...boardsAt(points), milestone: { usersOver100k: 0 } }) },
      seasons: {
        calendar: DEFAULT_SEASON_CALENDAR,
        boards: async () => ({ season: 3, ...boardsAt(0) }),
      },
    });
    // A client of whole boards: greeted in the tick that claims the push.
    io.on('connection', (socket) => pushes.welcome(socket, undefined, undefined));
    const socket = client();
    const received: BoardsPush[] = [];
    socket.on(gameEvents.boards, (push: BoardsPush) => received.push(push));
    await expect.poll(() => received.length).toBe(2);

    // The greeting holds the boards before the tap; the push, the tap its claim took.
    expect(received.map((push) => push.users?.[0].totalPoints)).toEqual([1, 2]);
  });
});
