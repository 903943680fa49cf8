import { diffSeasonBoards, gameEvents, type SeasonBoards } from '@tapgram/shared';
import { describe, expect, it, vi } from 'vitest';
import { SeasonFollower } from '../../src/features/game/seasons/season-follower';
import { makeLeaderboardCountry, makeLeaderboardUser } from './builders';
import { fakeSocket } from './fake-socket';

const alice = makeLeaderboardUser({ username: 'alice', totalPoints: 30 });
const bob = makeLeaderboardUser({ username: 'bob', totalPoints: 20 });

const season = (id: number, users = [alice, bob]): SeasonBoards => ({
  season: id,
  users,
  countries: [makeLeaderboardCountry('GB', 50)],
});

function follow(connected: boolean) {
  const socket = fakeSocket(connected);
  const onBoards = vi.fn();
  const follower = new SeasonFollower(
    socket as unknown as ConstructorParameters<typeof SeasonFollower>[0],
    'top100',
    onBoards,
  );
  const watches = () =>
    socket.emit.mock.calls.filter(([event]) => event === gameEvents.watchSeason).map(([, p]) => p);
  return { socket, onBoards, follower, watches };
}

describe('SeasonFollower', () => {
  it('asks for the season on every connection, then holds the snapshot and applies deltas', () => {
    const { socket, onBoards, watches } = follow(false);
    expect(watches()).toEqual([]);
    socket.connect();
    expect(watches()).toEqual([{ boards: 'top100' }]);
    socket.push(gameEvents.seasonSnapshot, { v: 1, ...season(4) });
    expect(onBoards).toHaveBeenLastCalledWith(season(4));
    const next = season(4, [{ ...bob, totalPoints: 40 }, alice]);
    socket.push(gameEvents.seasonDelta, { from: 1, v: 2, ...diffSeasonBoards(season(4), next) });
    const shown = onBoards.mock.lastCall![0] as SeasonBoards;
    expect(shown.users.map((u) => [u.username, u.totalPoints, u.rank])).toEqual([
      ['bob', 40, 1],
      ['alice', 30, 2],
    ]);
    socket.reconnect();
    expect(watches()).toHaveLength(2);
  });

  it('takes a rollover as any delta: the next season from nothing', () => {
    const { socket, onBoards } = follow(true);
    socket.push(gameEvents.seasonSnapshot, { v: 1, ...season(4) });
    const next: SeasonBoards = { season: 5, users: [], countries: [] };
    socket.push(gameEvents.seasonDelta, { from: 1, v: 2, ...diffSeasonBoards(season(4), next) });
    expect(onBoards).toHaveBeenLastCalledWith(next);
  });

  it('asks for the snapshot again when a delta was made against other boards', () => {
    const { socket, onBoards, watches } = follow(true);
    socket.push(gameEvents.seasonSnapshot, { v: 1, ...season(4) });
    socket.push(gameEvents.seasonDelta, {
      from: 7,
      v: 8,
      ...diffSeasonBoards(season(4), season(4, [alice])),
    });
    expect(onBoards).toHaveBeenCalledTimes(1);
    expect(watches()).toHaveLength(2);
  });

  it('stops following when disposed', () => {
    const { socket, follower, watches } = follow(true);
    follower.dispose();
    expect(watches().at(-1)).toEqual({ boards: null });
    expect(socket.listenerCount(gameEvents.seasonDelta)).toBe(0);
  });
});
