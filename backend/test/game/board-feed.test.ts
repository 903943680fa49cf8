import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gameEvents, type Boards, type BoardsDelta, type BoardsSnapshot } from '@tapgram/shared';
import { Server, type Socket } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { BoardFeed } from '../../src/game/board-feed';

const board = (points: number): Boards => ({
  users: [{ id: 'u1', username: 'alice', totalPoints: points }],
  countries: [{ country: 'GB', totalPoints: points }],
  milestone: { usersOver100k: 0 },
});

describe('the board deltas of one process', () => {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  async function serve() {
    const server = http.createServer();
    const io = new Server(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      void io.close();
      server.close();
    });
    return { io, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('reach every follower once, a few sockets a turn, and skip one that left meanwhile', async () => {
    const { io, url } = await serve();
    let boards = board(1);
    let version = 1;
    let clock = 0;
    // Two sockets a turn: seven followers take four turns.
    const feed = new BoardFeed({
      io,
      source: { read: async () => boards, version: async () => version },
      now: () => clock,
      socketsPerTurn: 2,
    });
    const joined: Socket[] = [];
    // The deltas each socket was sent, as the server wrote them.
    const sent = new Map<string, number>();
    io.on('connection', (socket) => {
      joined.push(socket);
      socket.conn.on('packetCreate', (packet: { type: string; data?: unknown }) => {
        if (packet.type === 'message' && String(packet.data).includes(gameEvents.boardsDelta)) {
          sent.set(socket.id, (sent.get(socket.id) ?? 0) + 1);
        }
      });
      feed.watch(socket, 'top10');
    });
    const clients: ClientSocket[] = [];
    const deltas = new Map<ClientSocket, BoardsDelta[]>();
    const snapshots = new Map<ClientSocket, BoardsSnapshot>();
    for (let i = 0; i < 7; i += 1) {
      const client = connect(url, { transports: ['websocket'], forceNew: true });
      closers.push(() => client.disconnect());
      deltas.set(client, []);
      client.on(gameEvents.boardsSnapshot, (s: BoardsSnapshot) => snapshots.set(client, s));
      client.on(gameEvents.boardsDelta, (d: BoardsDelta) => deltas.get(client)!.push(d));
      clients.push(client);
    }
    await expect.poll(() => joined.length).toBe(7);
    await feed.check();
    await expect.poll(() => snapshots.size).toBe(7);

    // The last follower's socket leaves after the first turn's lot went out, before its own: the
    // check reads and sends the first lot within this turn (its reads answer at once), and this
    // is the first callback of the next turn.
    const leaving = joined[6];
    const left = clients.find((c) => c.id === leaving.id)!;
    boards = board(2);
    version = 2;
    // A push interval later.
    clock += 60_000;
    let stillFollowing: boolean | undefined;
    setImmediate(() => {
      stillFollowing = io.of('/').adapter.rooms.get('boards:top10')?.has(leaving.id);
      void leaving.leave('boards:top10');
    });
    await feed.check();
    expect(stillFollowing).toBe(true);
    expect(joined.map((socket) => sent.get(socket.id) ?? 0)).toEqual([1, 1, 1, 1, 1, 1, 0]);
    const reached = clients.filter((c) => c !== left);
    await expect.poll(() => reached.map((c) => deltas.get(c)!.length)).toEqual([1, 1, 1, 1, 1, 1]);
    const v = snapshots.get(reached[0])!.v;
    for (const client of reached) {
      expect(deltas.get(client)).toEqual([
        expect.objectContaining({ from: v, v: expect.any(Number) }),
      ]);
    }
    expect(deltas.get(left)).toEqual([]);
  });
});
