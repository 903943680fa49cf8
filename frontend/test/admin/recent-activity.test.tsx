// @vitest-environment happy-dom
import type { AdminStats } from '@tapgram/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../lolgram/builders';
import { json, stubFetchForEachTest } from '../lolgram/fetch-stub';
import { signIn } from '../lolgram/render';
import { makePlayerAction } from './builders';
import { FIRST_RENDER, renderAdminAt } from './render-admin';

const ACTIONS = '/api/admin/game/actions';
const api = stubFetchForEachTest();

function decision(
  decision: 'approved' | 'rejected',
  contentId: string,
  decidedAt: string,
): AdminStats['recentDecisions'][number] {
  return { decision, moderator: 'mod1', contentId, notes: '', decidedAt };
}

function answerOverview(recentDecisions: AdminStats['recentDecisions']) {
  const stats: AdminStats = {
    users: 1,
    posts: 1,
    pendingModeration: 0,
    health: {},
    recentDecisions,
    daily: [],
    reportsByReason: [],
  };
  api
    .on('GET', '/api/lolgram/admin/moderation/queue', () => json([]))
    .on('GET', /^\/api\/lolgram\/analytics\/popular/, () => json([]))
    .on('GET', '/api/lolgram/admin/stats', () => json(stats));
}

/** The Recent Activity card's lines, top to bottom. */
async function activityLines() {
  const card = (await screen.findByRole('heading', { name: 'Recent Activity' }, FIRST_RENDER))
    .parentElement!;
  const list = await within(card).findByRole('list');
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  signIn(api, makeUser({ username: 'boss' }), { isAdmin: true });
});

describe('Recent Activity', () => {
  it("merges the game's freezes and unfreezes with the moderation decisions, newest first", async () => {
    answerOverview([
      decision('approved', 'aaaaaaaa-0000-4000-8000-000000000001', '2026-11-03T10:00:00.000Z'),
      decision('rejected', 'bbbbbbbb-0000-4000-8000-000000000002', '2026-11-01T10:00:00.000Z'),
    ]);
    const frozen = makePlayerAction({
      player: 'clockwork',
      moderator: 'boss',
      reason: 'exact cadence',
      at: '2026-11-04T10:00:00.000Z',
    });
    api.on('GET', ACTIONS, () =>
      json([
        frozen,
        makePlayerAction({
          action: 'unfreeze',
          player: 'alice',
          moderator: 'mod2',
          reason: 'appeal',
          at: '2026-11-02T10:00:00.000Z',
        }),
      ]),
    );
    renderAdminAt('/admin');

    await expect.poll(async () => (await activityLines()).length).toBe(4);
    const lines = await activityLines();
    expect(lines[0]).toMatch(/^@boss froze @clockwork: exact cadence /);
    expect(lines[1]).toMatch(/^approved aaaaaaaa by @mod1 /);
    expect(lines[2]).toMatch(/^@mod2 unfroze @alice: appeal /);
    expect(lines[3]).toMatch(/^rejected bbbbbbbb by @mod1 /);
    expect(screen.getByRole('link', { name: '@clockwork' })).toHaveAttribute(
      'href',
      `/admin/players/${frozen.playerId}`,
    );
  });

  it('still shows the decisions when the actions cannot be fetched, and Retry asks again', async () => {
    answerOverview([
      decision('approved', 'aaaaaaaa-0000-4000-8000-000000000001', '2026-11-03T10:00:00.000Z'),
    ]);
    let failing = true;
    api.on('GET', ACTIONS, () =>
      failing ? json({ error: 'Boom' }, 500) : json([makePlayerAction({ player: 'late' })]),
    );
    renderAdminAt('/admin');

    const alert = await screen.findByText('Failed to fetch player actions', {}, FIRST_RENDER);
    expect(await activityLines()).toEqual([expect.stringMatching(/^approved aaaaaaaa/)]);
    failing = false;
    await userEvent.click(within(alert.parentElement!).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: '@late' })).toBeInTheDocument();
  });
});
