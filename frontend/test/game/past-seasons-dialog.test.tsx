// @vitest-environment happy-dom
import type {
  LeaderboardCountry,
  PastSeason,
  PlayerSeason,
  RankedUser,
  Season,
} from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PastSeasonsDialog } from '../../src/features/game/seasons/PastSeasonsDialog';
import { createQueryClient } from '../../src/lib/query-client';
import { checkedAnswer } from '../api-answers';
import { deferred } from './builders';
import { json } from './game-api';

const ME = '00000000-0000-4000-8000-000000000001';
const AMY = '00000000-0000-4000-8000-00000000000a';

/** Season 5 ran from 9 March to the start of 16 March (UTC); each one before it the week before. */
const week = (id: number): Season => ({
  id,
  name: `Season ${id}`,
  startsAt: new Date(Date.UTC(2026, 2, 9 - (5 - id) * 7)).toISOString(),
  endsAt: new Date(Date.UTC(2026, 2, 16 - (5 - id) * 7)).toISOString(),
});

const season = (id: number, over: Partial<PastSeason> = {}): PastSeason => ({
  ...week(id),
  players: 0,
  points: 0,
  winner: null,
  ...over,
});

const ARCHIVED: PastSeason[] = [
  season(5, { players: 3, points: 330, winner: { id: AMY, username: 'amy', points: 200 } }),
  season(4),
];

/** The running season first (not final), then the archived ones the player scored in. */
const MINE: PlayerSeason[] = [
  { ...week(6), points: 7, rank: 1, final: false },
  { ...week(5), points: 1200, rank: 2, final: true },
  // Frozen when season 4 ended: off its board.
  { ...week(4), points: 50, rank: null, final: true },
];

const FINAL_USERS: RankedUser[] = [
  { id: AMY, username: 'amy', totalPoints: 200, rank: 1 },
  { id: ME, username: 'me_player', totalPoints: 120, rank: 2 },
  { id: '00000000-0000-4000-8000-00000000000b', username: 'bob', totalPoints: 10, rank: 3 },
];

const FINAL_COUNTRIES: LeaderboardCountry[] = [
  { country: 'FR', totalPoints: 210 },
  { country: 'GB', totalPoints: 120 },
];

interface SeasonsApi {
  archived: PastSeason[];
  mine: PlayerSeason[];
  users: RankedUser[];
  countries: LeaderboardCountry[];
  /** Answers a path instead of the above (a refusal, or one that waits). */
  override?: Record<string, () => Response | Promise<Response>>;
}

/** Replaces fetch with the seasons' calls, answered from `api` (checked like the server's). */
function stubSeasonsApi(api: SeasonsApi) {
  const answer = (path: string): Response | Promise<Response> => {
    const override = api.override?.[path];
    if (override) return override();
    if (path === '/api/seasons') return json(api.archived);
    if (path === `/api/users/${ME}/seasons`) return json(api.mine);
    if (/^\/api\/seasons\/\d+\/users$/.test(path)) return json(api.users);
    if (/^\/api\/seasons\/\d+\/countries$/.test(path)) return json(api.countries);
    return json({ error: `No stub for GET ${path}` }, 404);
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    return checkedAnswer('GET', path, await answer(path));
  });
  vi.stubGlobal('fetch', fetchMock);
  return (path: string) =>
    fetchMock.mock.calls.filter(([input]) => new URL(String(input), 'http://x').pathname === path)
      .length;
}

const api = (over: Partial<SeasonsApi> = {}): SeasonsApi => ({
  archived: ARCHIVED,
  mine: MINE,
  users: FINAL_USERS,
  countries: FINAL_COUNTRIES,
  ...over,
});

function renderDialog(userId: string | undefined) {
  const onOpenChange = vi.fn<(open: boolean) => void>();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PastSeasonsDialog open onOpenChange={onOpenChange} userId={userId} />
    </QueryClientProvider>,
  );
  return { onOpenChange, dialog: screen.getByRole('dialog', { name: 'Past seasons' }) };
}

/** Each season button as "name · period · detail". */
const seasonButtons = (panel: HTMLElement) =>
  within(panel)
    .getAllByRole('button')
    .map((button) => {
      const [what, detail] = Array.from(button.children);
      const [name, period] = Array.from(what.children, (part) => part.textContent);
      return `${name} · ${period} · ${detail.textContent}`;
    });

const tabPanel = () => screen.getByRole('tabpanel');

/** A board's rows as "rank name points". */
const rows = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => Array.from(item.children, (part) => part.textContent?.trim()).join(' '));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the past seasons dialog', () => {
  it("opens on the player's own finished seasons, with their place and points in each", async () => {
    stubSeasonsApi(api());
    renderDialog(ME);
    const mine = screen.getByRole('tab', { name: 'My seasons' });
    expect(mine.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Each season’s final boards, kept for good.')).toBeTruthy();
    // The running season is not over: only the archived ones are listed.
    await expect
      .poll(() => seasonButtons(tabPanel()))
      .toEqual([
        `Season 5 · 9 Mar – 15 Mar · #2 · ${(1200).toLocaleString()} pts`,
        'Season 4 · 2 Mar – 8 Mar · unranked · 50 pts',
      ]);
  });

  it('lists every archived season with its winner on the other tab', async () => {
    stubSeasonsApi(api());
    renderDialog(ME);
    await userEvent.click(screen.getByRole('tab', { name: 'All seasons' }));
    await expect
      .poll(() => seasonButtons(tabPanel()))
      .toEqual(['Season 5 · 9 Mar – 15 Mar · 🏆 amy', 'Season 4 · 2 Mar – 8 Mar · no players']);
  });

  it('shows a visitor without a player every archived season, and reads no player’s seasons', async () => {
    const calls = stubSeasonsApi(api());
    renderDialog(undefined);
    expect(screen.queryByRole('tab', { name: 'My seasons' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'All seasons' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await expect.poll(() => seasonButtons(tabPanel())).toHaveLength(2);
    expect(calls('/api/seasons')).toBe(1);
    expect(calls(`/api/users/${ME}/seasons`)).toBe(0);
  });

  it('says so when no season has ended yet, on both tabs', async () => {
    stubSeasonsApi(api({ archived: [], mine: [MINE[0]] }));
    renderDialog(ME);
    expect(
      await screen.findByText('No finished season yet: your results show here once one ends.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'All seasons' }));
    expect(await screen.findByText('No season has ended yet.')).toBeTruthy();
  });

  it("opens a season's final boards: the players, the player's own row marked, and the countries", async () => {
    const users = deferred<Response>();
    const calls = stubSeasonsApi(
      api({ override: { '/api/seasons/5/users': () => users.promise } }),
    );
    renderDialog(ME);
    await userEvent.click(await screen.findByRole('button', { name: /^Season 5/ }));

    expect(screen.getByRole('dialog', { name: 'Season 5' })).toBeTruthy();
    expect(screen.getByText('Final boards, 9 Mar – 15 Mar')).toBeTruthy();
    // The board loads: placeholder rows meanwhile.
    expect(screen.getByRole('list', { name: 'Loading' }).getAttribute('aria-busy')).toBe('true');
    users.resolve(json(FINAL_USERS));
    const players = await screen.findByRole('list', { name: 'Season 5: final players' });
    expect(rows(players)).toEqual(['1 amy 200', '2 me_player 120', '3 bob 10']);
    expect(
      within(players)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-current')),
    ).toEqual([null, 'true', null]);

    await userEvent.click(screen.getByRole('tab', { name: 'Countries' }));
    const countries = await screen.findByRole('list', { name: 'Season 5: final countries' });
    expect(rows(countries)).toEqual(['1 France 210', '2 United Kingdom 120']);
    expect(calls('/api/seasons/5/users')).toBe(1);
    expect(calls('/api/seasons/5/countries')).toBe(1);
  });

  it('goes back from a season to the list of seasons', async () => {
    stubSeasonsApi(api());
    renderDialog(ME);
    await userEvent.click(await screen.findByRole('button', { name: /^Season 4/ }));
    expect(await screen.findByRole('list', { name: 'Season 4: final players' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'All seasons' }));
    expect(screen.getByRole('dialog', { name: 'Past seasons' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'My seasons' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(seasonButtons(tabPanel())).toHaveLength(2);
  });

  it('says nobody scored in a season whose final boards are empty', async () => {
    stubSeasonsApi(api({ users: [], countries: [] }));
    renderDialog(undefined);
    await userEvent.click(await screen.findByRole('button', { name: /^Season 4/ }));
    expect(await screen.findByText('No players')).toBeTruthy();
    expect(screen.getByText('Nobody scored this season.')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Countries' }));
    expect(await screen.findByText('No countries')).toBeTruthy();
  });

  it("still lists the player's own seasons when the archive cannot be read", async () => {
    const calls = stubSeasonsApi(
      api({ override: { '/api/seasons': () => json({ error: 'Try again later' }, 503) } }),
    );
    renderDialog(ME);
    await expect.poll(() => seasonButtons(tabPanel())).toHaveLength(2);
    expect(calls('/api/seasons')).toBe(1);
    await userEvent.click(screen.getByRole('button', { name: /^Season 5/ }));
    expect(await screen.findByRole('list', { name: 'Season 5: final players' })).toBeTruthy();
  });

  it('says a list is loading, says when it could not be read, and reads it again on request', async () => {
    const first = deferred<Response>();
    let reads = 0;
    const calls = stubSeasonsApi(
      api({
        override: {
          '/api/seasons': () => (reads++ === 0 ? first.promise : json(ARCHIVED)),
          '/api/seasons/5/users': () => json({ error: 'Try again later' }, 503),
        },
      }),
    );
    // No player: the dialog opens on all seasons.
    renderDialog(undefined);
    expect((await screen.findByRole('status')).textContent).toBe('Loading the past seasons…');
    first.resolve(json({ error: 'Try again later' }, 503));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load the past seasons.');

    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await expect.poll(() => seasonButtons(tabPanel())).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls('/api/seasons')).toBe(2);

    // A final board that cannot be read says so, instead of its placeholder rows for good.
    await userEvent.click(screen.getByRole('button', { name: /^Season 5/ }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Could not load the final players.',
    );
    expect(screen.queryByRole('list', { name: 'Loading' })).toBeNull();
  });

  it('closes with Escape or its Close button', async () => {
    stubSeasonsApi(api());
    const { onOpenChange } = renderDialog(ME);
    await userEvent.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    onOpenChange.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
  });
});
