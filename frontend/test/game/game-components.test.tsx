// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeaderboardPanel } from '../../src/features/game/LeaderboardPanel';
import { defaultCountry } from '../../src/lib/countries';
import { MilestoneBanner } from '../../src/features/game/MilestoneBanner';
import { WelcomeDialog } from '../../src/features/game/WelcomeDialog';
import { createQueryClient } from '../../src/lib/query-client';
import { fakeSocket } from './fake-socket';

vi.mock('socket.io-client', () => ({ io: () => fakeSocket(true) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('WelcomeDialog', () => {
  const renderDialog = (onCreate = vi.fn<(username: string) => Promise<void>>(async () => {})) => {
    render(<WelcomeDialog open onCreate={onCreate} />);
    return { onCreate, input: screen.getByLabelText('Username', { exact: true }) };
  };

  it.each([
    ['ab', 'Username must be at least 3 characters long'],
    ['bad name!', 'Username can only contain letters, numbers, underscores, and hyphens'],
  ])('shows the rule for %j and sends nothing', async (name, message) => {
    const { onCreate, input } = renderDialog();
    await userEvent.type(input, name);
    await userEvent.click(screen.getByRole('button', { name: 'Start Playing!' }));
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(onCreate).not.toHaveBeenCalled();
  });

  it('caps the input at 20 characters', () => {
    const { input } = renderDialog();
    expect(input.getAttribute('maxlength')).toBe('20');
  });

  it('sends the trimmed name and shows Creating... with the form disabled meanwhile', async () => {
    let finish: () => void = () => undefined;
    const onCreate = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { input } = renderDialog(onCreate);
    await userEvent.type(input, '  tapper_1 ');
    await userEvent.click(screen.getByRole('button', { name: 'Start Playing!' }));
    expect(onCreate).toHaveBeenCalledWith('tapper_1', defaultCountry());
    const busy = screen.getByRole('button', { name: 'Creating...' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(input.hasAttribute('disabled')).toBe(true);
    finish();
    expect(await screen.findByRole('button', { name: 'Start Playing!' })).toBeTruthy();
  });

  it('cannot be dismissed with Escape', async () => {
    renderDialog();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('MilestoneBanner', () => {
  it('says it is loading before data arrives', () => {
    render(<MilestoneBanner milestone={undefined} />);
    expect(screen.getByTestId('milestone-banner').textContent).toContain(
      'Loading milestone progress...',
    );
  });

  it('holds the progress bar while loading, empty, so that nothing moves when figures come', () => {
    const { rerender } = render(<MilestoneBanner milestone={undefined} />);
    const bar = () =>
      screen.getByTestId('milestone-banner').querySelector<HTMLElement>('[aria-hidden] > div');
    expect(bar()?.style.width).toBe('0%');
    rerender(<MilestoneBanner milestone={{ usersOver100k: 2 }} />);
    expect(bar()?.style.width).toBe('40%');
  });

  it('shows n/5 progress below the target', () => {
    render(<MilestoneBanner milestone={{ usersOver100k: 2 }} />);
    expect(screen.getByTestId('milestone-banner').textContent).toContain('2/5');
  });

  it.each([5, 7])('announces the rewards at %i users', (n) => {
    render(<MilestoneBanner milestone={{ usersOver100k: n }} />);
    expect(screen.getByTestId('milestone-banner').textContent).toContain(
      '5 users reached 100K points - new rewards are now available!',
    );
  });
});

describe('LeaderboardPanel', () => {
  function renderPanel(
    data?: { users?: unknown[]; countries?: unknown[] },
    props = {},
    board: 'season' | 'all' = 'all',
  ) {
    // What the test does not set waits: nothing reaches a server.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => undefined)),
    );
    const client = createQueryClient();
    const keys =
      board === 'all'
        ? ['/api/leaderboard/users', '/api/leaderboard/countries']
        : ['/api/seasons/current/users', '/api/seasons/current/countries'];
    if (data?.users) client.setQueryData([keys[0]], data.users);
    if (data?.countries) client.setQueryData([keys[1]], data.countries);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const onToggleSound = vi.fn();
    render(
      <LeaderboardPanel
        soundOn
        onToggleSound={onToggleSound}
        currentUserId={undefined}
        {...props}
      />,
      { wrapper },
    );
    return { onToggleSound };
  }

  /** The boards on show: the innermost tab panel. */
  const boards = () => screen.getAllByRole('tabpanel').at(-1)!;

  it('shows five skeleton rows while loading', () => {
    renderPanel();
    expect(screen.getAllByTestId('leaderboard-skeleton')).toHaveLength(5);
  });

  it.each(['season', 'all'] as const)('shows both empty states (%s)', async (board) => {
    renderPanel({ users: [], countries: [] }, {}, board);
    if (board === 'all') await userEvent.click(screen.getByRole('tab', { name: 'All time' }));
    expect(await screen.findByText('No players yet!')).toBeTruthy();
    expect(screen.getByText('Be the first to start tapping!')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Countries' }));
    expect(screen.getByText('No countries yet!')).toBeTruthy();
    expect(screen.getByText('Start tapping to represent your country!')).toBeTruthy();
  });

  it('shows the running season first, all time one tab away', async () => {
    renderPanel(
      { users: [{ id: 'a', username: 'climber', totalPoints: 5, rank: 1 }] },
      {},
      'season',
    );
    expect(screen.getByRole('tab', { name: 'Season', selected: true })).toBeTruthy();
    expect(await within(boards()).findByText('climber')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'All time' }));
    expect(within(boards()).queryByText('climber')).toBeNull();
  });

  it('numbers players from 1 in order and maps country names with a fallback', async () => {
    renderPanel({
      users: [
        { id: 'a', username: 'first', totalPoints: 30 },
        { id: 'b', username: 'second', totalPoints: 10 },
      ],
      countries: [
        { country: 'GB', totalPoints: 30 },
        { country: 'XX', totalPoints: 10 },
      ],
    });
    await userEvent.click(screen.getByRole('tab', { name: 'All time' }));
    const rows = within(boards()).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual(['1first30', '2second10']);
    await userEvent.click(screen.getByRole('tab', { name: 'Countries' }));
    const countries = within(boards()).getAllByRole('listitem');
    expect(countries[0].textContent).toContain('United Kingdom');
    expect(countries[1].textContent).toContain('XX');
    expect(within(countries[1]).getByTestId('flag-globe')).toBeTruthy();
    expect(within(countries[0]).getByTestId('flag-GB').tagName).toBe('IMG');
  });

  it('toggles the sound', async () => {
    const { onToggleSound } = renderPanel({ users: [], countries: [] });
    await userEvent.click(screen.getByRole('button', { name: /Sound ON/ }));
    expect(onToggleSound).toHaveBeenCalledTimes(1);
  });
});
