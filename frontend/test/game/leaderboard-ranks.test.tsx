// @vitest-environment happy-dom
import type { LeaderboardCountry, LeaderboardUser, RankedUser } from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeaderboardPanel } from '../../src/features/game/LeaderboardPanel';
import { LeaderboardScreen } from '../../src/features/leaderboard/LeaderboardScreen';
import { createQueryClient } from '../../src/lib/query-client';
import { checkedAnswer } from '../api-answers';
import { json } from './game-api';
import { makeLeaderboardUser } from './builders';
import { fakeSocket } from './fake-socket';

vi.mock('socket.io-client', () => ({ io: () => fakeSocket(true) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Answers GET /api/users/{id}/around with `rows`, and counts the calls. */
function stubAround(userId: string, rows: RankedUser[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    // The season's calls wait: these tests look at the all-time boards.
    if (path.startsWith('/api/seasons') || path.endsWith('/seasons'))
      return new Promise<never>(() => undefined);
    const answer =
      path === `/api/users/${userId}/around`
        ? json(rows)
        : json({ error: `No stub for GET ${path}` }, 404);
    return checkedAnswer('GET', path, answer);
  });
  vi.stubGlobal('fetch', fetchMock);
  return () =>
    fetchMock.mock.calls.filter(([input]) => String(input).endsWith(`/${userId}/around`)).length;
}

/** The panel on its all-time boards. */
async function renderPanel(
  users: LeaderboardUser[],
  countries: LeaderboardCountry[],
  currentUserId?: string,
) {
  const client = createQueryClient();
  client.setQueryData(['/api/leaderboard/users'], users);
  client.setQueryData(['/api/leaderboard/countries'], countries);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  render(<LeaderboardPanel soundOn onToggleSound={vi.fn()} currentUserId={currentUserId} />, {
    wrapper,
  });
  await userEvent.click(screen.getByRole('tab', { name: 'All time' }));
}

/** The boards on show: the innermost tab panel. */
const boards = () => screen.getAllByRole('tabpanel').at(-1)!;

const rowTexts = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((row) => row.textContent);

describe('ranks on the boards follow the Rank tile: equal points share a rank', () => {
  it('numbers the players and the countries of the panel by it', async () => {
    stubAround('nobody', []);
    await renderPanel(
      [
        makeLeaderboardUser({ username: 'amy', totalPoints: 30 }),
        makeLeaderboardUser({ username: 'bob', totalPoints: 30 }),
        makeLeaderboardUser({ username: 'cid', totalPoints: 10 }),
      ],
      [
        { country: 'GB', totalPoints: 9 },
        { country: 'FR', totalPoints: 9 },
        { country: 'JP', totalPoints: 9 },
        { country: 'DE', totalPoints: 1 },
      ],
    );
    expect(rowTexts(boards())).toEqual(['1amy30', '1bob30', '3cid10']);
    await userEvent.click(screen.getByRole('tab', { name: 'Countries' }));
    const countries = rowTexts(boards());
    expect(countries.map((text) => text?.match(/^\d+/)?.[0])).toEqual(['1', '1', '1', '4']);
  });

  it('numbers the event screen by it', () => {
    const client = createQueryClient();
    client.setQueryData(
      ['/api/seasons/current/users'],
      [
        makeLeaderboardUser({ username: 'amy', totalPoints: 7 }),
        makeLeaderboardUser({ username: 'bob', totalPoints: 7 }),
      ],
    );
    client.setQueryData(['/api/seasons/current/countries'], [{ country: 'GB', totalPoints: 14 }]);
    client.setQueryData(['/api/milestone/100k'], { usersOver100k: 0 });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => undefined)),
    );
    render(
      <QueryClientProvider client={client}>
        <LeaderboardScreen />
      </QueryClientProvider>,
    );
    const players = screen.getByRole('list', { name: 'Top Players' });
    expect(rowTexts(players)).toEqual(['1amy7', '1bob7']);
  });
});

describe('around me: a player outside the top of the board', () => {
  const top = [
    makeLeaderboardUser({ username: 'amy', totalPoints: 90 }),
    makeLeaderboardUser({ username: 'bob', totalPoints: 80 }),
  ];
  const me = makeLeaderboardUser({ username: 'me', totalPoints: 12 });
  const around: RankedUser[] = [
    { ...makeLeaderboardUser({ username: 'up2', totalPoints: 15 }), rank: 140 },
    { ...makeLeaderboardUser({ username: 'up1', totalPoints: 12 }), rank: 141 },
    { ...me, rank: 141 },
    { ...makeLeaderboardUser({ username: 'down1', totalPoints: 11 }), rank: 143 },
    { ...makeLeaderboardUser({ username: 'down2', totalPoints: 3 }), rank: 144 },
  ];

  it('sees their own row and the players just above and below under Top Players', async () => {
    stubAround(me.id, around);
    await renderPanel(top, [], me.id);
    const section = await screen.findByRole('region', { name: 'Around you' });
    expect(rowTexts(screen.getByTestId('around-me'))).toEqual([
      '140up215',
      '141up112',
      '141me12',
      '143down111',
      '144down23',
    ]);
    const mine = within(section).getByText('me').closest('li');
    expect(mine?.getAttribute('aria-current')).toBe('true');
    // Below the top list, which keeps its own rows.
    const board = boards();
    expect(board.textContent?.indexOf('Top Players')).toBeLessThan(
      board.textContent?.indexOf('Around you') ?? -1,
    );
    expect(within(board).getAllByRole('listitem')).toHaveLength(top.length + around.length);
  });

  it('is not shown, nor asked for, to a player on the top list', async () => {
    const calls = stubAround(top[1].id, around);
    await renderPanel(top, [], top[1].id);
    expect(screen.queryByRole('region', { name: 'Around you' })).toBeNull();
    expect(calls()).toBe(0);
  });

  it('is not asked for without a player', async () => {
    const calls = stubAround('', around);
    await renderPanel(top, []);
    expect(screen.queryByRole('region', { name: 'Around you' })).toBeNull();
    expect(calls()).toBe(0);
  });
});
