// @vitest-environment happy-dom
import {
  moderationNotes,
  type AdminStats,
  type CommentSignal,
  type ModerationQueueEntry,
} from '@tapgram/shared';
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminPage } from '../../src/features/admin/AdminPage';
import { adminKeys } from '../../src/features/admin/queries';
import { makeUser, meAnswer } from '../lolgram/builders';
import { json, stubFetch, type FetchStub } from '../lolgram/fetch-stub';
import { renderWithApp, signIn } from '../lolgram/render';

const ME = '/api/lolgram/users/me';
// The page loads the wallet chunk lazily; the first render in a run waits for it.
const FIRST_RENDER = { timeout: 10_000 };
const ADMIN_DATA = /^\/api\/lolgram\/(admin|analytics)\//;

function makeStats(overrides: Partial<AdminStats> = {}): AdminStats {
  return {
    users: 12,
    posts: 34,
    pendingModeration: 0,
    health: { database: 'ok', redis: 'not configured', imageCheck: 'ready' },
    recentDecisions: [],
    daily: [],
    reportsByReason: [],
    ...overrides,
  };
}

function answerAdminData(
  api: FetchStub,
  stats: () => Response = () => json(makeStats()),
  queue: ModerationQueueEntry[] = [],
  signals: () => Response = () => json([]),
) {
  api
    .on('GET', '/api/lolgram/admin/moderation/queue', () => json(queue))
    .on('GET', '/api/lolgram/admin/comment-signals', signals)
    .on('GET', /^\/api\/lolgram\/analytics\/popular/, () => json([]))
    .on('GET', '/api/lolgram/admin/stats', stats)
    .on('GET', '/api/admin/game/actions', () => json([]));
}

function renderAdmin() {
  return renderWithApp(<AdminPage />, { route: '/admin', path: '/admin', auth: false });
}

let api: FetchStub;

beforeEach(() => {
  localStorage.clear();
  api = stubFetch();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the admin page', () => {
  it('shows a signed-out visitor "Admins only" and fetches no admin data', async () => {
    api.on('GET', ME, () => json({ error: 'Not signed in' }, 401));
    renderAdmin();
    expect(
      await screen.findByRole('heading', { name: 'Admins only' }, FIRST_RENDER),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(api.calls('GET', ADMIN_DATA)).toHaveLength(0);
  });

  it('tells a signed-in user that their account is not an admin one', async () => {
    const user = makeUser({ username: 'carol' });
    signIn(api, user);
    renderAdmin();
    expect(
      await screen.findByText(
        'You are signed in as @carol, which is not an admin account.',
        {},
        FIRST_RENDER,
      ),
    ).toBeInTheDocument();
    expect(api.calls('GET', ADMIN_DATA)).toHaveLength(0);
  });

  it('opens the dashboard once an admin signs in from the page', async () => {
    const admin = makeUser({ username: 'boss' });
    let signedIn = false;
    api
      .on('GET', ME, () =>
        signedIn ? json(meAnswer(admin, true)) : json({ error: 'Not signed in' }, 401),
      )
      // Like the server's, the sign-in's answer does not say whether the account is an admin.
      .on('POST', '/api/lolgram/users/login', () => {
        signedIn = true;
        return json(admin);
      });
    answerAdminData(api);
    renderAdmin();

    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Username'), 'boss');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Moderating LOLGram as @boss')).toBeInTheDocument();
    expect(await screen.findByText('34 posts')).toBeInTheDocument();
  });

  it('sends a decision with its notes only: the server takes the moderator from the session', async () => {
    const admin = makeUser({ username: 'boss' });
    signIn(api, admin, { isAdmin: true });
    const entry: ModerationQueueEntry = {
      id: '00000000-0000-4000-8000-00000000aaaa',
      contentType: 'post',
      contentId: '00000000-0000-4000-8000-00000000bbbb',
      aiScore: '0.910',
      reason: 'image score 0.91',
      createdAt: '2026-11-01T12:00:00.000Z',
      reportCount: 0,
      post: null,
    };
    const decide = `/api/lolgram/admin/moderation/${entry.id}`;
    answerAdminData(api, undefined, [entry]);
    api.on('POST', decide, () =>
      json({
        id: entry.id,
        decision: 'approved',
        moderatorId: admin.id,
        postStatus: 'visible',
        previousPostStatus: 'visible',
        status: 'visible',
        previousStatus: 'visible',
      }),
    );
    renderAdmin();

    await userEvent.click(
      await screen.findByRole('tab', { name: 'Content Moderation' }, FIRST_RENDER),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));

    expect(await screen.findByText('The post stays on LOLGram.')).toBeInTheDocument();
    const [call] = api.calls('POST', decide);
    expect(await call.json()).toEqual({ decision: 'approved', notes: moderationNotes.approved });
  });

  it('shows an edited caption under review beside the caption shown, and what rejecting it did', async () => {
    const admin = makeUser({ username: 'boss' });
    signIn(api, admin, { isAdmin: true });
    const entry: ModerationQueueEntry = {
      id: '00000000-0000-4000-8000-00000000cccc',
      contentType: 'post-edit',
      contentId: '00000000-0000-4000-8000-00000000dddd',
      aiScore: '0.600',
      reason: 'Edit, automatic check 0.60, held: caption has profanity',
      createdAt: '2026-11-01T12:00:00.000Z',
      reportCount: 0,
      'post-edit': {
        caption: 'a clean caption',
        editedCaption: 'a rude caption',
        thumbnailUrl: '/api/lolgram/images/posts/x/thumb.jpg',
        username: 'writer',
        status: 'held',
      },
    };
    const decide = `/api/lolgram/admin/moderation/${entry.id}`;
    answerAdminData(api, undefined, [entry]);
    api.on('POST', decide, () =>
      json({
        id: entry.id,
        decision: 'rejected',
        moderatorId: admin.id,
        postStatus: null,
        previousPostStatus: null,
        status: 'rejected',
        previousStatus: 'held',
      }),
    );
    renderAdmin();

    await userEvent.click(
      await screen.findByRole('tab', { name: 'Content Moderation' }, FIRST_RENDER),
    );
    expect(await screen.findByText('Edited caption')).toBeInTheDocument();
    expect(screen.getByText('a rude caption')).toBeInTheDocument();
    expect(screen.getByText('Shown now: a clean caption')).toBeInTheDocument();
    expect(screen.getByText(/edit held; the post keeps its caption/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reject this edit?' });
    expect(
      within(confirm).getByText(
        'The edit is dropped for good; the post keeps the caption shown now.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reject' }));
    expect(
      await screen.findByText('The edit was dropped; the post keeps its caption.'),
    ).toBeInTheDocument();
  });

  it('says the figures could not be fetched instead of loading forever', async () => {
    signIn(api, makeUser({ username: 'boss' }), { isAdmin: true });
    answerAdminData(api, () => json({ error: 'Boom' }, 500));
    renderAdmin();
    const alerts = await screen.findAllByText('Failed to fetch stats', {}, FIRST_RENDER);
    expect(alerts.length).toBeGreaterThan(0);
  });

  it('says "1 post" and "1 report", in the singular at one', async () => {
    signIn(api, makeUser({ username: 'boss' }), { isAdmin: true });
    answerAdminData(api, () =>
      json(makeStats({ posts: 1, reportsByReason: [{ reason: 'spam', count: 1 }] })),
    );
    renderAdmin();
    expect(await screen.findByText('1 post', {}, FIRST_RENDER)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Reports' }));
    expect(await screen.findByText('1 report in all')).toBeInTheDocument();
  });

  it('lists the accounts of comment waves under the queue, and says when there are none or they could not be fetched', async () => {
    signIn(api, makeUser({ username: 'boss' }), { isAdmin: true });
    const signal: CommentSignal = {
      user: {
        id: '00000000-0000-4000-8000-00000000cccc',
        username: 'throwaway_1',
        createdAt: '2026-11-01T12:00:00.000Z',
      },
      waves: 1,
      deletedSoon: 10,
      posts: 1,
      lastAt: '2026-11-01T12:01:00.000Z',
    };
    let answer = () => json([signal]);
    answerAdminData(api, undefined, [], () => answer());
    const { client } = renderAdmin();
    await userEvent.click(
      await screen.findByRole('tab', { name: 'Content Moderation' }, FIRST_RENDER),
    );

    const list = await screen.findByRole('list', { name: 'Accounts in comment waves' });
    const row = within(list).getByRole('listitem');
    expect(within(row).getByRole('link', { name: '@throwaway_1' })).toHaveAttribute(
      'href',
      '/lolgram/throwaway_1',
    );
    expect(row).toHaveTextContent('1 wave · 10 comments deleted within a minute · 1 post');

    answer = () => json([]);
    await act(() => client.refetchQueries({ queryKey: adminKeys.commentSignals }));
    expect(await screen.findByText('No comment waves in the last 7 days.')).toBeInTheDocument();
    answer = () => json({ error: 'Boom' }, 500);
    await act(() => client.refetchQueries({ queryKey: adminKeys.commentSignals }));
    expect(await screen.findByText('Failed to fetch comment waves')).toBeInTheDocument();
  });
});
