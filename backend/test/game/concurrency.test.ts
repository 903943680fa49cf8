import type { LeaderboardCountry, LeaderboardUser } from '@tapgram/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, type Player } from './builders';
import { storageModes } from './modes';
import { connectGame, sendTaps } from './socket-client';

const PLAYERS = 100;
const HTTP_TAPS = 40;
const SOCKET_BATCHES = 7;
const BATCH = 10;
const COUNTRIES = ['GB', 'US', 'DE', 'FR', 'JP', 'BR', 'IN'];

describe.each(storageModes)('10,000+ concurrent taps (%s mode)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    // Consistency under load is the point here, not the anti-cheat rate.
    server = await startTestServer({
      mode,
      env: { TAP_RATE_PER_SECOND: '100000', TAP_BURST: '100000' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps totals, sessions, leaderboards, ranks, milestone and Postgres rows exact', async () => {
    const players: Player[] = await Promise.all(
      Array.from({ length: PLAYERS }, (_, i) =>
        makePlayer(server.url, COUNTRIES[i % COUNTRIES.length]),
      ),
    );
    const acknowledged = new Map<string, number>();
    const ack = (id: string, n: number) => acknowledged.set(id, (acknowledged.get(id) ?? 0) + n);

    await Promise.all(
      players.map(async (player, i) => {
        // Players tap different amounts, so that the leaderboard order means something.
        const httpTaps = HTTP_TAPS + (i % 13);
        const viaHttp = (async () => {
          for (let t = 0; t < httpTaps; t += 1) {
            const res = await fetch(`${server.url}/api/tap`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', cookie: player.cookie },
              body: JSON.stringify({
                userId: player.user.id,
                sessionId: player.session.id,
                pointsPerTap: 1,
              }),
            });
            expect(res.status).toBe(200);
            await res.arrayBuffer();
            ack(player.user.id, 1);
          }
        })();
        const viaSocket = (async () => {
          const socket = await connectGame(server.url, player.cookie);
          for (let b = 0; b < SOCKET_BATCHES; b += 1) {
            const reply = await sendTaps(socket, player.session.id, BATCH);
            expect(reply.ok).toBe(true);
            if (reply.ok) ack(player.user.id, reply.accepted);
          }
          socket.disconnect();
        })();
        await Promise.all([viaHttp, viaSocket]);
      }),
    );

    const total = [...acknowledged.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(10_000);

    const get = async <T>(path: string): Promise<T> =>
      (await fetch(`${server.url}${path}`)).json() as Promise<T>;
    const board = await get<LeaderboardUser[]>('/api/leaderboard/users?limit=1000');
    expect(board).toHaveLength(PLAYERS);
    for (const player of players) {
      const expected = acknowledged.get(player.user.id);
      const user = await get<{ totalPoints: number; totalTaps: number }>(
        `/api/users/${player.user.id}`,
      );
      expect(user.totalPoints).toBe(expected);
      expect(user.totalTaps).toBe(expected);
      expect(board.find((u) => u.id === player.user.id)?.totalPoints).toBe(expected);
      const rank = await get<{ rank: number }>(`/api/users/${player.user.id}/rank`);
      expect(rank.rank).toBe(1 + board.filter((u) => u.totalPoints > expected!).length);
    }
    expect(board.map((u) => u.totalPoints)).toEqual(
      [...board.map((u) => u.totalPoints)].sort((a, b) => b - a),
    );

    const byCountry = new Map<string, number>();
    players.forEach((p) =>
      byCountry.set(
        p.user.country,
        (byCountry.get(p.user.country) ?? 0) + acknowledged.get(p.user.id)!,
      ),
    );
    const countries = await get<LeaderboardCountry[]>('/api/leaderboard/countries');
    expect(new Map(countries.map((c) => [c.country, c.totalPoints]))).toEqual(byCountry);
    expect(await get('/api/milestone/100k')).toEqual({ usersOver100k: 0 });

    // The durable copy: Postgres agrees once the flusher has run (at once in Postgres mode).
    const rowsAgree = async () => {
      const users = await server.db.pool.query<{
        id: string;
        total_points: number;
        total_taps: number;
      }>('SELECT id, total_points, total_taps FROM game_users');
      const sessions = await server.db.pool.query<{ user_id: string; session_points: number }>(
        'SELECT user_id, session_points FROM game_sessions',
      );
      const countryRows = await server.db.pool.query<{ country: string; total_points: number }>(
        'SELECT country, total_points FROM game_countries',
      );
      return (
        users.rows.every(
          (u) =>
            u.total_points === acknowledged.get(u.id) && u.total_taps === acknowledged.get(u.id),
        ) &&
        sessions.rows.every((s) => s.session_points === acknowledged.get(s.user_id)) &&
        countryRows.rows.every((c) => c.total_points === byCountry.get(c.country))
      );
    };
    await expect.poll(rowsAgree, { timeout: 15_000, interval: 250 }).toBe(true);
  });
});
