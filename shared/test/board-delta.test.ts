import { describe, expect, it } from 'vitest';
import {
  applyBoardsDelta,
  boardsDeltaSchema,
  diffBoards,
  type Boards,
  type LeaderboardUser,
} from '../src';

/** A seeded generator, so that a failing case can be run again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The top `limit` of `players` as the server orders it (points down, then id down), ranked. */
function top(players: LeaderboardUser[], limit: number): LeaderboardUser[] {
  const sorted = [...players]
    .sort((a, b) => b.totalPoints - a.totalPoints || (a.id < b.id ? 1 : -1))
    .slice(0, limit);
  return sorted.map((u) => ({
    ...u,
    rank: 1 + sorted.filter((v) => v.totalPoints > u.totalPoints).length,
  }));
}

function boardsOf(players: LeaderboardUser[], countries: Map<string, number>, limit: number) {
  return {
    users: top(players, limit),
    countries: [...countries]
      .sort((a, b) => b[1] - a[1])
      .map(([country, totalPoints]) => ({ country, totalPoints })),
    milestone: { usersOver100k: players.filter((p) => p.totalPoints >= 100_000).length },
  } satisfies Boards;
}

describe('board deltas', () => {
  it('rebuild the next boards from the previous ones, round after round of random taps', () => {
    for (const seed of [1, 2, 3, 42, 2024]) {
      const next = random(seed);
      const players: LeaderboardUser[] = [];
      const countries = new Map<string, number>();
      let held = boardsOf(players, countries, 10);
      for (let round = 0; round < 40; round += 1) {
        // New players arrive, some players tap, some a lot (past the milestone, up the board).
        for (let i = 0; i < 3; i += 1) {
          players.push({
            id: `id-${players.length}`,
            username: `p${players.length}`,
            totalPoints: 0,
          });
        }
        for (const player of players) {
          if (next() < 0.4) {
            const taps = Math.floor(next() * (next() < 0.05 ? 100_000 : 30));
            player.totalPoints += taps;
            const country = ['GB', 'FR', 'JP', 'BR', 'US'][Math.floor(next() * 5)];
            countries.set(country, (countries.get(country) ?? 0) + taps);
          }
        }
        const after = boardsOf(players, countries, 10);
        const delta = diffBoards(held, after);
        const applied = delta
          ? applyBoardsDelta(held, { from: round, v: round + 1, ...delta })
          : held;
        expect(applied).toEqual(after);
        if (delta)
          expect(boardsDeltaSchema.safeParse({ from: 0, v: 1, ...delta }).success).toBe(true);
        held = applied;
      }
    }
  });

  it('is nothing when nothing changed, and names held rows by their place', () => {
    const alice = { id: 'a', username: 'alice', totalPoints: 30, rank: 1 };
    const bob = { id: 'b', username: 'bob', totalPoints: 20, rank: 2 };
    const boards: Boards = { users: [alice, bob], countries: [], milestone: { usersOver100k: 0 } };
    expect(diffBoards(boards, structuredClone(boards))).toBeNull();
    const after: Boards = {
      ...boards,
      users: [{ ...bob, totalPoints: 35 }, alice, { id: 'c', username: 'carol', totalPoints: 5 }],
    };
    expect(diffBoards(boards, after)).toEqual({ users: [[1, 15], 0, ['c', 'carol', 5]] });
  });

  it('sends a renamed player whole', () => {
    const before: Boards = {
      users: [{ id: 'a', username: 'alice', totalPoints: 3 }],
      countries: [],
      milestone: { usersOver100k: 0 },
    };
    const after = { ...before, users: [{ id: 'a', username: 'alicia', totalPoints: 3 }] };
    expect(diffBoards(before, after)).toEqual({ users: [['a', 'alicia', 3]] });
  });

  it('gives equal points one rank and the next row its place', () => {
    const before: Boards = { users: [], countries: [], milestone: { usersOver100k: 0 } };
    const applied = applyBoardsDelta(before, {
      from: 1,
      v: 2,
      users: [
        ['a', 'alice', 9],
        ['b', 'bob', 9],
        ['c', 'carol', 4],
      ],
    });
    expect(applied.users.map((u) => u.rank)).toEqual([1, 1, 3]);
  });

  it('refuses a delta that names a row the boards do not hold', () => {
    const before: Boards = {
      users: [{ id: 'a', username: 'alice', totalPoints: 3 }],
      countries: [],
      milestone: { usersOver100k: 0 },
    };
    expect(() => applyBoardsDelta(before, { from: 1, v: 2, users: [1] })).toThrow(RangeError);
    expect(() => applyBoardsDelta(before, { from: 1, v: 2, countries: [[0, 4]] })).toThrow(
      RangeError,
    );
  });
});
