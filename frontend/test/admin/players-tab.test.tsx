// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../lolgram/builders';
import { json, stubFetchForEachTest } from '../lolgram/fetch-stub';
import { signIn } from '../lolgram/render';
import { makeOperatorPlayer, playersPage } from './builders';
import { FIRST_RENDER, renderAdminAt } from './render-admin';

const PLAYERS = /^\/api\/admin\/game\/players\?/;
const api = stubFetchForEachTest();

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  signIn(api, makeUser({ username: 'boss' }), { isAdmin: true });
});

/** The query of each players request, in order. */
function playerQueries() {
  return api.calls('GET', PLAYERS).map((request) => {
    const params = new URL(request.url).searchParams;
    return Object.fromEntries(params.entries());
  });
}

const table = () => screen.getByRole('table');

describe('the Players tab', () => {
  it('lists the most suspicious players first with their figures, reasons and frozen state', async () => {
    const bot = makeOperatorPlayer({
      username: 'clockwork',
      country: 'FR',
      totalPoints: 98_000,
      refusedTaps: 1240,
      frozen: true,
      suspicion: {
        score: 85,
        reasons: ['refused 1,240 taps today', 'batches at an even cadence (variation 0.02)'],
      },
    });
    const human = makeOperatorPlayer({ username: 'alice', country: 'GB', totalPoints: 500 });
    api.on('GET', PLAYERS, () => json(playersPage([bot, human], 2)));
    renderAdminAt('/admin?tab=players');

    const link = await within(await screen.findByRole('table', {}, FIRST_RENDER)).findByRole(
      'link',
      { name: '@clockwork' },
    );
    expect(link).toHaveAttribute('href', `/admin/players/${bot.id}`);
    const [, first, second] = within(table()).getAllByRole('row');
    expect(first).toHaveTextContent('France');
    expect(first).toHaveTextContent('98,000');
    expect(first).toHaveTextContent('1,240');
    expect(within(first).getByText('Frozen')).toBeInTheDocument();
    expect(first).toHaveTextContent('Suspicion 85 of 100');
    expect(within(first).getByText('batches at an even cadence (variation 0.02)')).toBeVisible();
    expect(second).toHaveTextContent('@alice');
    expect(within(second).queryByText('Frozen')).not.toBeInTheDocument();
    expect(within(second).getByText('Nothing unusual seen.')).toBeInTheDocument();
    expect(screen.getByText('1–2 of 2 players')).toBeInTheDocument();
    expect(playerQueries()).toEqual([{ q: '', sort: 'suspicion', limit: '50', offset: '0' }]);
  });

  it('asks the server for the chosen sort and the searched username', async () => {
    api.on('GET', PLAYERS, (request) => {
      const params = new URL(request.url).searchParams;
      const name = `${params.get('sort')}-${params.get('q') || 'all'}`;
      return json(playersPage([makeOperatorPlayer({ username: name })]));
    });
    renderAdminAt('/admin?tab=players');
    expect(await screen.findAllByText('@suspicion-all', {}, FIRST_RENDER)).not.toHaveLength(0);

    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'Refused taps');
    expect(await screen.findAllByText('@refused-all')).not.toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Search by username'), ' bot ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findAllByText('@refused-bot')).not.toHaveLength(0);

    expect(playerQueries()).toEqual([
      { q: '', sort: 'suspicion', limit: '50', offset: '0' },
      { q: '', sort: 'refused', limit: '50', offset: '0' },
      { q: 'bot', sort: 'refused', limit: '50', offset: '0' },
    ]);
  });

  it('pages through the players with Next and Previous', async () => {
    api.on('GET', PLAYERS, (request) => {
      const offset = Number(new URL(request.url).searchParams.get('offset'));
      return json(playersPage([makeOperatorPlayer({ username: `from-${offset}` })], 60));
    });
    renderAdminAt('/admin?tab=players');
    expect(await screen.findByText('1–50 of 60 players', {}, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('51–60 of 60 players')).toBeInTheDocument();
    expect(within(table()).getByRole('link', { name: '@from-50' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('1–50 of 60 players')).toBeInTheDocument();
    expect(playerQueries().map((query) => query.offset)).toEqual(['0', '50']);
  });

  it('says that no player matches a search', async () => {
    api.on('GET', PLAYERS, () => json(playersPage([], 0)));
    renderAdminAt('/admin?tab=players&q=nobody');
    expect(await screen.findByText('No players match', {}, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.getByText('No username holds “nobody”.')).toBeInTheDocument();
    expect(screen.getByLabelText('Search by username')).toHaveValue('nobody');
    expect(playerQueries()).toEqual([{ q: 'nobody', sort: 'suspicion', limit: '50', offset: '0' }]);
  });

  it('says the players could not be fetched, and Retry asks again', async () => {
    let failing = true;
    api.on('GET', PLAYERS, () =>
      failing
        ? json({ error: 'Boom' }, 500)
        : json(playersPage([makeOperatorPlayer({ username: 'back' })])),
    );
    renderAdminAt('/admin?tab=players');
    const alert = await screen.findByRole('alert', {}, FIRST_RENDER);
    expect(alert).toHaveTextContent('Failed to fetch players');

    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(await screen.findByRole('table')).findByText('@back')).toBeInTheDocument();
    expect(screen.queryByText('Failed to fetch players')).not.toBeInTheDocument();
  });

  it('offers the leaderboard export as a download', async () => {
    api.on('GET', PLAYERS, () => json(playersPage([])));
    renderAdminAt('/admin?tab=players');
    const link = await screen.findByRole(
      'link',
      { name: 'Export leaderboard (CSV)' },
      FIRST_RENDER,
    );
    expect(link).toHaveAttribute('href', '/api/admin/game/leaderboard.csv');
    expect(link).toHaveAttribute('download');
  });

  it('is a tab of the dashboard, next to the four others', async () => {
    api
      .on('GET', PLAYERS, () => json(playersPage([makeOperatorPlayer({ username: 'zed' })])))
      .on('GET', '/api/lolgram/admin/moderation/queue', () => json([]))
      .on('GET', /^\/api\/lolgram\/analytics\/popular/, () => json([]))
      .on('GET', '/api/admin/game/actions', () => json([]));
    renderAdminAt('/admin');
    const tabs = await screen.findAllByRole('tab', {}, FIRST_RENDER);
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Overview',
      'Content Moderation',
      'Analytics',
      'Reports',
      'Players',
    ]);
    expect(api.calls('GET', PLAYERS)).toHaveLength(0);
    await userEvent.click(screen.getByRole('tab', { name: 'Players' }));
    expect(await within(await screen.findByRole('table')).findByText('@zed')).toBeInTheDocument();
  });
});
