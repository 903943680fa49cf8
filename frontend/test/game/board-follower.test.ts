import {
  diffBoards,
  gameEvents,
  type BoardDetail,
  type Boards,
  type BoardsDelta,
} from '@tapgram/shared';
import { describe, expect, it, vi } from 'vitest';
import { BoardFollower } from '../../src/features/game/board-follower';
import { makeLeaderboardCountry, makeLeaderboardUser } from './builders';
import { fakeSocket } from './fake-socket';

const alice = makeLeaderboardUser({ username: 'alice', totalPoints: 30 });
const bob = makeLeaderboardUser({ username: 'bob', totalPoints: 20 });
const carol = makeLeaderboardUser({ username: 'carol', totalPoints: 10 });

function boards(users = [alice, bob], countries = [makeLeaderboardCountry('GB', 50)]): Boards {
  return { users, countries, milestone: { usersOver100k: 0 } };
}

/** The delta a server makes from `before` to `after`, versions `from` to `v`. */
function delta(before: Boards, after: Boards, from: number, v: number): BoardsDelta {
  return { from, v, ...diffBoards(before, after) };
}

function follow(connected: boolean, askedAtConnect?: BoardDetail) {
  const socket = fakeSocket(connected);
  const onBoards = vi.fn();
  const follower = new BoardFollower(
    socket as unknown as ConstructorParameters<typeof BoardFollower>[0],
    'top100',
    onBoards,
    () => askedAtConnect,
  );
  const watches = () => socket.emit.mock.calls.filter(([event]) => event === gameEvents.watch);
  return { socket, onBoards, follower, watches };
}

describe('BoardFollower', () => {
  it('holds the snapshot, then applies each delta to what it holds', () => {
    const { socket, onBoards, watches } = follow(false, 'top100');
    const first = boards();
    socket.push(gameEvents.boardsSnapshot, { v: 1, ...first });
    expect(onBoards).toHaveBeenLastCalledWith(first, {
      users: true,
      countries: true,
      milestone: true,
    });

    // Carol enters, Bob overtakes Alice; the countries do not change.
    const second = boards([{ ...bob, totalPoints: 40 }, alice, carol]);
    socket.push(gameEvents.boardsDelta, delta(first, second, 1, 2));
    const [shown, changed] = onBoards.mock.lastCall ?? [];
    expect(shown.users).toEqual([
      { ...bob, totalPoints: 40, rank: 1 },
      { ...alice, rank: 2 },
      { ...carol, rank: 3 },
    ]);
    expect(shown.countries).toBe(first.countries);
    expect(changed).toEqual({ users: true, countries: false, milestone: false });

    const third = { ...second, milestone: { usersOver100k: 1 } };
    socket.push(gameEvents.boardsDelta, delta(second, third, 2, 3));
    expect(onBoards.mock.lastCall?.[0].milestone).toEqual({ usersOver100k: 1 });
    expect(watches()).toEqual([]);
  });

  it('asks for a snapshot when a delta was made against other boards, and waits for it', () => {
    const { socket, onBoards, watches } = follow(false, 'top100');
    const first = boards();
    socket.push(gameEvents.boardsSnapshot, { v: 1, ...first });
    onBoards.mockClear();
    // Version 2 never arrived: the delta from 2 to 3 does not fit what is held.
    socket.push(gameEvents.boardsDelta, delta(boards([bob, alice]), boards([alice, bob]), 2, 3));
    expect(watches()).toEqual([[gameEvents.watch, { boards: 'top100' }]]);
    // Until the snapshot comes, deltas are dropped without asking again.
    socket.push(gameEvents.boardsDelta, delta(first, boards([alice]), 3, 4));
    expect(watches()).toHaveLength(1);
    expect(onBoards).not.toHaveBeenCalled();
    socket.push(gameEvents.boardsSnapshot, { v: 4, ...boards([alice]) });
    expect(onBoards).toHaveBeenLastCalledWith(boards([alice]), expect.anything());
  });

  it('asks for a snapshot when a delta names a row it does not hold', () => {
    const { socket, watches } = follow(false, 'top100');
    socket.push(gameEvents.boardsSnapshot, { v: 1, ...boards([alice]) });
    socket.push(gameEvents.boardsDelta, { from: 1, v: 2, users: [[3, 5]] });
    expect(watches()).toHaveLength(1);
  });

  it('asks for its detail at once when the channel is open already', () => {
    const { watches } = follow(true, 'top10');
    expect(watches()).toEqual([[gameEvents.watch, { boards: 'top100' }]]);
  });

  it('after a reconnect, asks only when the handshake asked for another detail', () => {
    const asked = follow(false, 'top100');
    asked.socket.connect();
    expect(asked.watches()).toEqual([]);
    const other = follow(false, 'top10');
    other.socket.connect();
    expect(other.watches()).toEqual([[gameEvents.watch, { boards: 'top100' }]]);
  });

  it('drops what it holds on a disconnect: the next connection brings a snapshot', () => {
    const { socket, onBoards } = follow(false, 'top100');
    socket.push(gameEvents.boardsSnapshot, { v: 1, ...boards() });
    socket.disconnect();
    onBoards.mockClear();
    socket.push(gameEvents.boardsDelta, delta(boards(), boards([alice]), 1, 2));
    expect(onBoards).not.toHaveBeenCalled();
  });

  it('takes the whole boards a channel opened without a detail gets', () => {
    const { socket, onBoards } = follow(false);
    socket.push(gameEvents.boards, { users: [carol] });
    expect(onBoards).toHaveBeenLastCalledWith(expect.objectContaining({ users: [carol] }), {
      users: true,
      countries: false,
      milestone: false,
    });
  });

  it('stops listening once disposed', () => {
    const { socket, onBoards, follower } = follow(false, 'top100');
    follower.dispose();
    socket.push(gameEvents.boardsSnapshot, { v: 1, ...boards() });
    expect(onBoards).not.toHaveBeenCalled();
  });
});
