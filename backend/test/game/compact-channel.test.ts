import {
  applyBoardsDelta,
  gameEvents,
  type BoardDetail,
  type Boards,
  type BoardsDelta,
  type BoardsSnapshot,
  type TapBatch,
  type WatchAck,
} from '@tapgram/shared';
import { isDeepStrictEqual } from 'node:util';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, type Player } from './builders';
import { storageModes } from './modes';
import { connectGame, gameSockets, nextEvent, sendTaps } from './socket-client';

/**
 * A client of the compact protocol, as the game screen holds the boards: the snapshot, then each
 * delta applied to what it holds (a delta against other boards fails the test).
 */
function follow(socket: Socket) {
  const state = {
    held: null as { v: number; boards: Boards } | null,
    snapshots: [] as BoardsSnapshot[],
    deltas: [] as BoardsDelta[],
  };
  socket.on(gameEvents.boardsSnapshot, (snapshot: BoardsSnapshot) => {
    const { v, ...boards } = snapshot;
    state.snapshots.push(snapshot);
    state.held = { v, boards };
  });
  socket.on(gameEvents.boardsDelta, (delta: BoardsDelta) => {
    const held = state.held;
    if (!held) throw new Error('a delta before any snapshot');
    expect(delta.from).toBe(held.v);
    state.deltas.push(delta);
    state.held = { v: delta.v, boards: applyBoardsDelta(held.boards, delta) };
  });
  /** Resolves when the boards held satisfy `accept`, checked now and after each message. */
  const until = (accept: (boards: Boards) => boolean) =>
    new Promise<Boards>((resolve, reject) => {
      const check = () => {
        if (!state.held || !accept(state.held.boards)) return false;
        clearTimeout(timer);
        socket.off(gameEvents.boardsSnapshot, check);
        socket.off(gameEvents.boardsDelta, check);
        resolve(state.held.boards);
        return true;
      };
      const timer = setTimeout(() => reject(new Error('the boards never got there')), 10_000);
      if (check()) return;
      socket.on(gameEvents.boardsSnapshot, check);
      socket.on(gameEvents.boardsDelta, check);
    });
  return { socket, state, until };
}

/** The boards as the REST API answers them (a full fetch). */
async function fetchBoards(url: string, usersLimit = 100): Promise<Boards> {
  const [users, countries, milestone] = await Promise.all([
    request(url).get(`/api/leaderboard/users?limit=${usersLimit}`),
    request(url).get('/api/leaderboard/countries'),
    request(url).get('/api/milestone/100k'),
  ]);
  return { users: users.body, countries: countries.body, milestone: milestone.body };
}

const sameAs = (expected: Boards) => (boards: Boards) => isDeepStrictEqual(boards, expected);

describe.each(storageModes)('the game channel, compact (%s mode)', (mode) => {
  let server: TestServer;
  const connect = gameSockets(() => server.url);
  const following: Socket[] = [];
  afterEach(() => {
    for (const socket of following.splice(0)) socket.disconnect();
  });
  /** A client following `detail`, listening before it connects (the snapshot comes at once). */
  async function connectFollowing(detail: BoardDetail) {
    const socket = io(server.url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      auth: { boards: detail, acks: 'compact' },
    });
    following.push(socket);
    const follower = follow(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return follower;
  }
  beforeAll(async () => {
    server = await startTestServer({ mode });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Taps `count` for each player, over their own sockets, and waits for every answer. */
  async function tapAll(players: Player[], counts: number[]) {
    await Promise.all(
      players.map(async (player, i) => {
        const socket = await connect(player.cookie);
        expect(await sendTaps(socket, player.session.id, counts[i])).toMatchObject({ ok: true });
      }),
    );
  }

  it('answers a tap batch with the totals only', async () => {
    const player = await makePlayer(server.url);
    const socket = await connect(player.cookie, undefined, { acks: 'compact' });
    await sendTaps(socket, player.session.id, 4, 1);
    expect(await sendTaps(socket, player.session.id, 3, 2)).toEqual({
      ok: true,
      accepted: 3,
      totalPoints: 7,
      totalTaps: 7,
      sessionPoints: 7,
      sessionTaps: 7,
      seq: 2,
      durableSeq: mode === 'postgres' ? 2 : expect.any(Number),
    });
    // A refusal reads as before.
    expect(await sendTaps(socket, player.session.id, 0)).toMatchObject({ ok: false, status: 400 });
  });

  it('a client that applies the deltas of the top 100 ends with the boards a full fetch answers', async () => {
    const players = await Promise.all(
      ['BR', 'JP', 'BR', 'NZ', 'JP'].map((country) => makePlayer(server.url, country)),
    );
    const watcher = await connectFollowing('top100');
    await watcher.until(() => true);
    // Rounds of taps that reorder the board, add players and a country to it.
    await tapAll(players.slice(0, 3), [5, 3, 1]);
    await watcher.until((b) => b.users.some((u) => u.id === players[2].user.id && u.totalPoints));
    await tapAll(players, [1, 9, 2, 4, 6]);
    const expected = await fetchBoards(server.url);
    expect(expected.users.some((u) => u.id === players[4].user.id)).toBe(true);
    await watcher.until(sameAs(expected));
    expect(watcher.state.deltas.length).toBeGreaterThanOrEqual(2);
    // A player already held is named by their row, not sent again.
    const known = watcher.state.deltas.at(-1)?.users ?? [];
    expect(known.filter((row) => Array.isArray(row) && typeof row[0] === 'string')).not.toEqual(
      known,
    );
  });

  it('the event screen follows 10 rows of each board', async () => {
    const players = await Promise.all(
      Array.from({ length: 12 }, (_, i) => makePlayer(server.url, ['FR', 'DE', 'IT'][i % 3])),
    );
    const screen = await connectFollowing('top10');
    await tapAll(players, [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]);
    const full = await fetchBoards(server.url, 10);
    const expected = { ...full, countries: full.countries.slice(0, 10) };
    const boards = await screen.until(sameAs(expected));
    expect(boards.users).toHaveLength(10);
  });

  it('switches a socket to another detail with watch, with a new snapshot', async () => {
    const { socket, state, until } = await connectFollowing('top100');
    await until(() => true);
    const [first] = state.snapshots;
    const again = nextEvent<BoardsSnapshot>(socket, gameEvents.boardsSnapshot);
    const answer: WatchAck = await socket
      .timeout(10_000)
      .emitWithAck(gameEvents.watch, { boards: 'top10' });
    expect(answer).toEqual({ ok: true });
    const second = await again;
    expect(second.users.length).toBeLessThanOrEqual(10);
    expect(second.v).not.toBe(first.v);
    expect(
      await socket.timeout(10_000).emitWithAck(gameEvents.watch, { boards: 'top5' }),
    ).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses a handshake that asks for a detail it does not offer', async () => {
    await expect(
      connectGame(server.url, undefined, {}, { boards: 'top5' as BoardDetail }),
    ).rejects.toThrow(/Invalid handshake/);
  });

  it('sends whole boards only to clients that follow no detail, and deltas only to those that do', async () => {
    const player = await makePlayer(server.url, 'CL');
    const watcher = await connectFollowing('top100');
    const compact = watcher.socket;
    const full = await connect();
    const seen: string[] = [];
    compact.onAny((event: string) => seen.push(event));
    const seenFull: string[] = [];
    full.onAny((event: string) => seenFull.push(event));
    await watcher.until(() => true);
    const fullPush = nextEvent<{ users?: { id: string }[] }>(full, gameEvents.boards, (push) =>
      Boolean(push.users?.some((u) => u.id === player.user.id)),
    );
    const batch: TapBatch = { sessionId: player.session.id, count: 2 };
    const tapper = await connect(player.cookie);
    await tapper.timeout(10_000).emitWithAck(gameEvents.tap, batch);
    await watcher.until((b) => b.users.some((u) => u.id === player.user.id && u.totalPoints === 2));
    await fullPush;
    // Anything the server sent this socket before answering is here once the answer is.
    await compact.timeout(10_000).emitWithAck(gameEvents.watch, { boards: 'top100' });
    expect(seen).not.toContain(gameEvents.boards);
    expect(seen).toContain(gameEvents.boardsDelta);
    expect(await full.timeout(10_000).emitWithAck(gameEvents.tap, {})).toMatchObject({
      status: 400,
    });
    expect(seenFull).toContain(gameEvents.boards);
    expect(seenFull).not.toContain(gameEvents.boardsDelta);
    expect(seenFull).not.toContain(gameEvents.boardsSnapshot);
  });
});
