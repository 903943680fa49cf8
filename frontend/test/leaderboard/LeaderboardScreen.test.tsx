import {
  diffBoards,
  diffSeasonBoards,
  gameEvents,
  type LeaderboardCountry,
  type LeaderboardUser,
} from '@tapgram/shared';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LeaderboardScreen } from '../../src/features/leaderboard/LeaderboardScreen';
import { Providers } from '../../src/Providers';
import { checkedAnswer } from '../api-answers';
import { makeLeaderboardCountry, makeLeaderboardUser } from '../game/builders';
import { fakeSocket } from '../game/fake-socket';
import { json } from '../game/game-api';
import { openGameSocket } from '../../src/features/game/game-socket';

const socket = fakeSocket(true);
vi.mock('socket.io-client', () => ({ io: () => socket }));

const SEASON = {
  id: 12,
  name: 'Season 12',
  startsAt: '2026-11-23T00:00:00.000Z',
  endsAt: '2026-11-30T00:00:00.000Z',
};

/**
 * Answers the boards' calls: the all-time boards (`?board=all`) or the running season's, which the
 * screen shows by default, with its countdown (2 days, 5 hours and a minute left).
 */
function stubBoards(
  users: LeaderboardUser[],
  countries: LeaderboardCountry[],
  board: 'all' | 'season' = 'all',
) {
  window.history.replaceState(
    null,
    '',
    board === 'all' ? '/leaderboard?board=all' : '/leaderboard',
  );
  const now = new Date(Date.parse(SEASON.endsAt) - ((2 * 24 + 5) * 3600 + 61) * 1000);
  const answer = (path: string): Response => {
    if (path === '/api/leaderboard/users' && board === 'all') return json(users);
    if (path === '/api/seasons/current/users' && board === 'season') {
      return json(users.map((u, i) => ({ ...u, rank: i + 1 })));
    }
    if (path === `/api/${board === 'all' ? 'leaderboard' : 'seasons/current'}/countries`) {
      return json(countries);
    }
    if (path === '/api/seasons/current') return json({ ...SEASON, now: now.toISOString() });
    if (path === '/api/milestone/100k') return json({ usersOver100k: 1 });
    return json({ error: `No stub for ${path}` }, 500);
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input);
      return checkedAnswer('GET', path, answer(path));
    }),
  );
}

const players = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    makeLeaderboardUser({ username: `player${i + 1}`, totalPoints: 1000 - i }),
  );

const board = (title: string) => within(screen.getByRole('list', { name: title }));

// The channel's client loads before the tests, so that the pages use the socket stubbed here.
beforeAll(() => openGameSocket());

beforeEach(() => {
  socket.connected = true;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('LeaderboardScreen', () => {
  it('shows the top 10 players and the top countries with names and flags', async () => {
    stubBoards(players(12), [makeLeaderboardCountry('GB', 900), makeLeaderboardCountry('XX', 5)]);
    render(<LeaderboardScreen />, { wrapper: Providers });
    expect(await board('Top Players').findByText('player1')).toBeInTheDocument();
    expect(board('Top Players').getAllByTestId('board-row')).toHaveLength(10);
    expect(board('Top Players').queryByText('player11')).not.toBeInTheDocument();
    const countries = board('Top Countries').getAllByTestId('board-row');
    // Flags are images (flag emoji show as letters on Windows), unknown codes a globe icon.
    expect(within(countries[0]).getByTestId('flag-GB').tagName).toBe('IMG');
    expect(countries[0]).toHaveTextContent('United Kingdom');
    expect(within(countries[1]).getByTestId('flag-globe')).toBeInTheDocument();
    expect(countries[1]).toHaveTextContent('XX');
  });

  it('says it is live while connected and reconnecting while not', async () => {
    stubBoards([], []);
    render(<LeaderboardScreen />, { wrapper: Providers });
    expect(await screen.findByText('Live')).toBeInTheDocument();
    act(() => {
      socket.disconnect();
    });
    expect(screen.getByText('Reconnecting…')).toBeInTheDocument();
    act(() => {
      socket.connect();
    });
    expect(screen.getByText('Live')).toBeInTheDocument();
  });

  it('follows the top 10 over the game channel: a snapshot, then what changed', async () => {
    stubBoards(players(2), []);
    render(<LeaderboardScreen />, { wrapper: Providers });
    expect(await board('Top Players').findByText('player1')).toBeInTheDocument();
    expect(socket.emit).toHaveBeenCalledWith(gameEvents.watch, { boards: 'top10' });
    const top = players(10);
    const countries = [makeLeaderboardCountry('US', 5000)];
    act(() => {
      socket.push(gameEvents.boardsSnapshot, {
        v: 7,
        users: top,
        countries,
        milestone: { usersOver100k: 1 },
      });
    });
    expect(await board('Top Players').findByText('player10')).toBeInTheDocument();
    const newcomer = makeLeaderboardUser({ username: 'newcomer', totalPoints: 5000 });
    act(() => {
      socket.push(gameEvents.boardsDelta, {
        from: 7,
        v: 8,
        ...diffBoards(
          { users: top, countries, milestone: { usersOver100k: 1 } },
          { users: [newcomer, ...top.slice(0, 9)], countries, milestone: { usersOver100k: 1 } },
        ),
      });
    });
    expect(await board('Top Players').findByText('newcomer')).toBeInTheDocument();
    expect(board('Top Players').getAllByTestId('board-row')[0]).toHaveTextContent(/newcomer/);
    expect(board('Top Players').queryByText('player10')).not.toBeInTheDocument();
    expect(board('Top Countries').getByText('United States')).toBeInTheDocument();
  });

  it('updates the boards on a push of the game channel', async () => {
    stubBoards(players(2), []);
    render(<LeaderboardScreen />, { wrapper: Providers });
    expect(await board('Top Players').findByText('player1')).toBeInTheDocument();
    expect(board('Top Countries').getByText('No countries yet!')).toBeInTheDocument();
    act(() => {
      socket.push(gameEvents.boards, {
        users: [makeLeaderboardUser({ username: 'newcomer', totalPoints: 5000 }), ...players(2)],
        countries: [makeLeaderboardCountry('US', 5000)],
      });
    });
    expect(await board('Top Players').findByText('newcomer')).toBeInTheDocument();
    expect(board('Top Players').getAllByTestId('board-row')[0]).toHaveTextContent(/^1newcomer/);
    expect(board('Top Countries').getByText('United States')).toBeInTheDocument();
  });

  it('shows the running season by default: its name, the time left and its boards, live', async () => {
    stubBoards(players(3), [makeLeaderboardCountry('JP', 70)], 'season');
    socket.emit.mockClear();
    render(<LeaderboardScreen />, { wrapper: Providers });
    expect(await board('Top Players').findByText('player1')).toBeInTheDocument();
    expect(board('Top Countries').getByText('Japan')).toBeInTheDocument();
    const season = screen.getByTestId('event-season');
    expect(season).toHaveTextContent('Season 12');
    expect(within(season).getByRole('timer')).toHaveTextContent('2d 5h left');
    expect(socket.emit).toHaveBeenCalledWith(gameEvents.watchSeason, { boards: 'top10' });
    expect(socket.emit).not.toHaveBeenCalledWith(gameEvents.watch, expect.anything());
    const top = players(3);
    const countries = [makeLeaderboardCountry('JP', 70)];
    act(() => {
      socket.push(gameEvents.seasonSnapshot, { v: 3, season: 12, users: top, countries });
    });
    const climber = makeLeaderboardUser({ username: 'climber', totalPoints: 5000 });
    act(() => {
      socket.push(gameEvents.seasonDelta, {
        from: 3,
        v: 4,
        ...diffSeasonBoards(
          { season: 12, users: top, countries },
          { season: 12, users: [climber, ...top], countries },
        ),
      });
    });
    expect(await board('Top Players').findByText('climber')).toBeInTheDocument();
    expect(board('Top Players').getAllByTestId('board-row')[0]).toHaveTextContent(/^1climber/);
  });
});
