// @vitest-environment happy-dom
import { messages, type PlayerDetail } from '@tapgram/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../lolgram/builders';
import { json, stubFetchForEachTest } from '../lolgram/fetch-stub';
import { signIn } from '../lolgram/render';
import {
  makeOperatorPlayer,
  makePlayerAction,
  makePlayerDay,
  makePlayerDetail,
  playersPage,
} from './builders';
import { FIRST_RENDER, renderAdminAt } from './render-admin';

const api = stubFetchForEachTest();

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  signIn(api, makeUser({ username: 'boss' }), { isAdmin: true });
});

/** The player's name and, when frozen, its badge. */
const title = () => screen.getByRole('heading', { level: 1 }).parentElement!;
/** The page's list of freezes and unfreezes. */
const audit = () => screen.getByRole('heading', { name: 'Actions' }).parentElement!;
const detailPath = (player: PlayerDetail) => `/api/admin/game/players/${player.id}`;

/** The server's player: GET answers it, freeze and unfreeze change it as the server would. */
function servePlayer(initial: PlayerDetail) {
  let player = initial;
  api.on('GET', detailPath(initial), () => json(player));
  for (const action of ['freeze', 'unfreeze'] as const) {
    api.on('POST', `${detailPath(initial)}/${action}`, async (request) => {
      // A clone: the test reads the request's body too.
      const { reason } = (await request.clone().json()) as { reason: string };
      const frozen = action === 'freeze';
      player = {
        ...player,
        frozen,
        frozenAt: frozen ? '2026-11-03T09:00:00.000Z' : null,
        frozenReason: frozen ? reason : null,
        actions: [
          makePlayerAction({ playerId: player.id, player: player.username, action, reason }),
          ...player.actions,
        ],
      };
      return json(player);
    });
  }
  return { current: () => player };
}

describe('a player page', () => {
  it('shows the totals, suspicion, the signals in words, the sessions, the network and the audit', async () => {
    const other = { id: makeOperatorPlayer().id, username: 'clone2', totalPoints: 7, frozen: true };
    const player = makePlayerDetail({
      username: 'clockwork',
      totalPoints: 98_000,
      totalTaps: 98_500,
      refusedTaps: 1240,
      suspicion: { score: 85, reasons: ['tapped 11 h 40 min without a pause'] },
      days: [
        makePlayerDay({ day: '2026-11-01', taps: 300, refused: 0, activeSeconds: 600 }),
        makePlayerDay({
          day: '2026-11-02',
          taps: 40_000,
          refused: 1240,
          batches: 4000,
          activeSeconds: 42_000,
          longestStreakSeconds: 42_000,
          sizeVariation: 0.02,
          intervalVariation: 0.01,
        }),
      ],
      sessions: [
        {
          id: 'session-1',
          sessionPoints: 40_000,
          sessionTaps: 40_000,
          createdAt: '2026-11-02T00:00:00.000Z',
          updatedAt: '2026-11-02T11:40:00.000Z',
        },
      ],
      network: { players: 18, others: [other] },
      actions: [
        makePlayerAction({ action: 'unfreeze', moderator: 'mod2', reason: 'appeal accepted' }),
      ],
    });
    servePlayer(player);
    renderAdminAt(`/admin/players/${player.id}`);

    expect(
      await screen.findByRole('heading', { level: 1, name: '@clockwork' }, FIRST_RENDER),
    ).toBeInTheDocument();
    const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling;
    expect(figure('Points')).toHaveTextContent('98,000');
    expect(figure('Taps')).toHaveTextContent('98,500');
    expect(figure('Refused taps')).toHaveTextContent('1,240');
    expect(screen.getByText('tapped 11 h 40 min without a pause')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Players' })).toHaveAttribute(
      'href',
      '/admin?tab=players',
    );

    // The charts' text alternative: a table of every day, and each chart said in words.
    const figures = screen.getByRole('table', { name: 'Signals per day, oldest first' });
    const [, , busy] = within(figures).getAllByRole('row');
    expect(within(busy).getByRole('rowheader')).toHaveTextContent('Nov 2');
    expect(busy).toHaveTextContent('40,000');
    expect(busy).toHaveTextContent('11 h 40 min');
    expect(busy).toHaveTextContent('0.02');
    expect(
      await screen.findByRole('img', {
        name: /^Taps per day over 2 days: 40,300 counted, 1,240 refused; the busiest day, Nov 2/,
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /the longest run without a pause, 11 h 40 min/ }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /lowest batch size variation 0.02/ }),
    ).toBeInTheDocument();

    expect(screen.getByText('18 players created from this network.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '@clone2' })).toHaveAttribute(
      'href',
      `/admin/players/${other.id}`,
    );
    expect(audit()).toHaveTextContent('@mod2 unfroze this player: appeal accepted');
    const sessions = screen.getByRole('heading', { name: 'Sessions' }).parentElement!;
    expect(sessions).toHaveTextContent('40,000 taps · 40,000 points');
  });

  it('freezes the player with a reason, which the dialog requires, then shows it frozen', async () => {
    const player = makePlayerDetail({ username: 'clockwork' });
    servePlayer(player);
    renderAdminAt(`/admin/players/${player.id}`);

    const freeze = await screen.findByRole('button', { name: 'Freeze' }, FIRST_RENDER);
    await userEvent.click(freeze);
    const dialog = await screen.findByRole('dialog', { name: 'Freeze @clockwork?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Freeze player' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(messages.freezeReasonRequired);
    expect(within(dialog).getByLabelText('Reason')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls('POST', `${detailPath(player)}/freeze`)).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Reason'), 'taps at an exact cadence');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Freeze player' }));

    expect(await screen.findByText('@clockwork is frozen')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const [call] = api.calls('POST', `${detailPath(player)}/freeze`);
    expect(await call.json()).toEqual({ reason: 'taps at an exact cadence' });
    expect(title()).toHaveTextContent('@clockworkFrozen');
    expect(screen.getByTestId('frozen-note')).toHaveTextContent(
      /^Frozen since .+: taps at an exact cadence$/,
    );
    expect(audit()).toHaveTextContent('@boss froze this player: taps at an exact cadence');
    // The same button, now Unfreeze, has the focus back.
    const unfreeze = screen.getByRole('button', { name: 'Unfreeze' });
    expect(unfreeze).toHaveFocus();
    // The page's data is read again from the server.
    await expect.poll(() => api.calls('GET', detailPath(player)).length).toBeGreaterThan(1);
  });

  it('unfreezes a frozen player with a reason', async () => {
    const player = makePlayerDetail({
      username: 'alice',
      frozen: true,
      frozenAt: '2026-11-02T09:00:00.000Z',
      frozenReason: 'looked scripted',
      actions: [makePlayerAction({ player: 'alice', reason: 'looked scripted' })],
    });
    servePlayer(player);
    renderAdminAt(`/admin/players/${player.id}`);

    await userEvent.click(await screen.findByRole('button', { name: 'Unfreeze' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog', { name: 'Unfreeze @alice?' });
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'a real person after all');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unfreeze player' }));

    expect(await screen.findByText('@alice is unfrozen')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Freeze' })).toBeInTheDocument();
    expect(title()).toHaveTextContent(/^@alice$/);
    expect(screen.queryByTestId('frozen-note')).not.toBeInTheDocument();
    const [call] = api.calls('POST', `${detailPath(player)}/unfreeze`);
    expect(await call.json()).toEqual({ reason: 'a real person after all' });
    expect(audit()).toHaveTextContent('@boss unfroze this player: a real person after all');
  });

  it("shows the server's refusal in the dialog", async () => {
    const player = makePlayerDetail({ username: 'alice' });
    servePlayer(player);
    api.on('POST', `${detailPath(player)}/freeze`, () =>
      json({ error: 'This player is already frozen' }, 409),
    );
    renderAdminAt(`/admin/players/${player.id}`);

    await userEvent.click(await screen.findByRole('button', { name: 'Freeze' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'scripted');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Freeze player' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This player is already frozen',
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('leads back to the Players list, which shows the freeze', async () => {
    const listed = makeOperatorPlayer({ username: 'clockwork' });
    const player = makePlayerDetail({ ...listed });
    const server = servePlayer(player);
    api.on('GET', /^\/api\/admin\/game\/players\?/, () =>
      json(playersPage([{ ...listed, frozen: server.current().frozen }])),
    );
    renderAdminAt('/admin?tab=players&sort=points');

    const table = await screen.findByRole('table', {}, FIRST_RENDER);
    await userEvent.click(within(table).getByRole('link', { name: '@clockwork' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Freeze' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'scripted');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Freeze player' }));
    await screen.findByText('@clockwork is frozen');

    await userEvent.click(screen.getByRole('link', { name: 'Back to Players' }));
    expect(await screen.findByRole('tab', { name: 'Players', selected: true })).toBeInTheDocument();
    expect(screen.getByLabelText('Sort by')).toHaveValue('points');
    const row = within(await screen.findByRole('table')).getAllByRole('row')[1];
    expect(await within(row).findByText('Frozen')).toBeInTheDocument();
  });

  it('says a player that does not exist was not found', async () => {
    api.on('GET', /^\/api\/admin\/game\/players\/[^/?]+$/, () =>
      json({ error: 'Player not found' }, 404),
    );
    renderAdminAt('/admin/players/00000000-0000-4000-a000-999999999999');
    expect(
      await screen.findByRole('heading', { name: 'Player not found' }, FIRST_RENDER),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Players' })).toBeInTheDocument();
  });
});
