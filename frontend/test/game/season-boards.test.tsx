// @vitest-environment happy-dom
import {
  gameEvents,
  type CurrentSeason,
  type LeaderboardUser,
  type PastSeason,
  type PlayerSeason,
} from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openGameSocket } from '../../src/features/game/game-socket';
import { SeasonBoards } from '../../src/features/game/seasons/SeasonBoards';
import { createQueryClient } from '../../src/lib/query-client';
import { checkedAnswer } from '../api-answers';
import { makeLeaderboardUser } from './builders';
import { fakeSocket } from './fake-socket';
import { json } from './game-api';

const socket = fakeSocket(true);
vi.mock('socket.io-client', () => ({ io: () => socket }));

const ME = '00000000-0000-4000-8000-000000000001';
const DAY = 86_400_000;

/** Season `id`, which started three days ago and ends in four days and half an hour. */
function running(id: number): CurrentSeason {
  const now = Date.now();
  return {
    id,
    name: `Season ${id}`,
    startsAt: new Date(now - 3 * DAY).toISOString(),
    endsAt: new Date(now + 4 * DAY + 30 * 60_000).toISOString(),
    now: new Date(now).toISOString(),
  };
}

const LAST: PastSeason = {
  id: 2,
  name: 'Season 2',
  startsAt: '2026-03-02T00:00:00.000Z',
  endsAt: '2026-03-09T00:00:00.000Z',
  players: 1,
  points: 40,
  winner: { id: ME, username: 'me_player', points: 40 },
};

/** The season's calls: the running one (a test moves it on), its empty boards, the archive. */
function stubSeasons() {
  const server = { season: running(3) };
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const { id, name, startsAt, endsAt } = server.season;
    const mine: PlayerSeason[] = [
      { id, name, startsAt, endsAt, points: 40, rank: 1, final: false },
    ];
    const answers: Record<string, unknown> = {
      '/api/seasons/current': server.season,
      '/api/seasons/current/users': [],
      '/api/seasons/current/countries': [],
      [`/api/users/${ME}/seasons`]: mine,
      '/api/seasons': [LAST],
    };
    const body = answers[path];
    return checkedAnswer(
      'GET',
      path,
      body === undefined ? json({ error: `No stub for GET ${path}` }, 404) : json(body),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = (path: string) =>
    fetchMock.mock.calls.filter(([input]) => new URL(String(input), 'http://x').pathname === path)
      .length;
  return { server, calls };
}

function renderBoards() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SeasonBoards currentUserId={ME} />
    </QueryClientProvider>,
  );
  return screen.getByTestId('season-boards');
}

/** What the game channel pushes: the running season's boards, whole. */
const snapshot = (season: number, users: LeaderboardUser[]) => ({
  v: 1,
  season,
  users,
  countries: [],
});

// The channel's client loads before the tests, so that the boards use the socket stubbed here.
beforeAll(() => openGameSocket());

beforeEach(() => {
  socket.connected = true;
  socket.emit.mockClear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("the season's boards on the game screen", () => {
  it("shows the running season, the player's place, and the boards the channel pushes", async () => {
    stubSeasons();
    const boards = renderBoards();
    expect(await within(boards).findByText('Season 3')).toBeTruthy();
    expect(within(boards).getByRole('timer').textContent).toBe('4d 0h left');
    expect((await within(boards).findByTestId('season-standing')).textContent).toBe(
      'You: #1 with 40 points',
    );
    expect(socket.emit).toHaveBeenCalledWith(gameEvents.watchSeason, { boards: 'top100' });

    const amy = makeLeaderboardUser({ username: 'amy', totalPoints: 90 });
    act(() => socket.push(gameEvents.seasonSnapshot, snapshot(3, [amy])));
    await expect
      .poll(() =>
        within(boards)
          .queryAllByRole('listitem')
          .map((item) => item.textContent),
      )
      .toEqual(['1amy90']);
  });

  it('reads the running season again when the channel pushes the next one’s boards (a rollover)', async () => {
    const { server, calls } = stubSeasons();
    const boards = renderBoards();
    expect(await within(boards).findByText('Season 3')).toBeTruthy();
    // Boards of the season on show: nothing more to read.
    act(() => socket.push(gameEvents.seasonSnapshot, snapshot(3, [])));
    expect(calls('/api/seasons/current')).toBe(1);

    server.season = running(4);
    act(() => socket.push(gameEvents.seasonSnapshot, snapshot(4, [])));
    expect(await within(boards).findByText('Season 4')).toBeTruthy();
    // The new season's (empty) board, once it has been read.
    expect(await within(boards).findByText('No players yet!')).toBeTruthy();
    expect(calls('/api/seasons/current')).toBe(2);
  });

  it('opens the past seasons, and closes them', async () => {
    stubSeasons();
    renderBoards();
    await userEvent.click(screen.getByRole('button', { name: 'Past seasons' }));
    const dialog = await screen.findByRole('dialog', { name: 'Past seasons' });
    await userEvent.click(within(dialog).getByRole('tab', { name: 'All seasons' }));
    expect(await within(dialog).findByRole('button', { name: /^Season 2/ })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
  });

  it("reads the player's seasons and the archive again each time the past seasons open", async () => {
    const { calls } = stubSeasons();
    renderBoards();
    const mine = `/api/users/${ME}/seasons`;
    await expect.poll(() => calls(mine)).toBe(1);
    for (const opened of [1, 2]) {
      await userEvent.click(screen.getByRole('button', { name: 'Past seasons' }));
      await screen.findByRole('dialog', { name: 'Past seasons' });
      await expect.poll(() => calls(mine)).toBe(1 + opened);
      await expect.poll(() => calls('/api/seasons')).toBe(opened);
      await userEvent.keyboard('{Escape}');
      await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    }
  });
});
