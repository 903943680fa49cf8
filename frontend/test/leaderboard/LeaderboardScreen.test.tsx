import {
  diffBoards,
  gameEvents,
  type LeaderboardCountry,
  type LeaderboardUser,
} from '@tapgram/shared';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LeaderboardScreen } from '../../src/features/leaderboard/LeaderboardScreen';
import { Providers } from '../../src/Providers';
import { checkedAnswer } from '../api-answers';
import { makeLeaderboardCountry, makeLeaderboardUser } from '../game/builders';
import { fakeSocket } from '../game/fake-socket';
import { json } from '../game/game-api';

const socket = fakeSocket(true);
vi.mock('socket.io-client', () => ({ io: () => socket }));

function stubBoards(users: LeaderboardUser[], countries: LeaderboardCountry[]) {
  const answer = (path: string): Response => {
    if (path === '/api/leaderboard/users') return json(users);
    if (path === '/api/leaderboard/countries') return json(countries);
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

beforeEach(() => {
  socket.connected = true;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
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
});
