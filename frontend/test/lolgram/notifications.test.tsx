// @vitest-environment happy-dom
import type { Notification } from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { startLive, stopLive } from '../../src/features/auth/live-client';
import { NotificationBell } from '../../src/features/lolgram/notifications/NotificationBell';
import { createQueryClient } from '../../src/lib/query-client';
import { fakeLiveSockets } from '../auth/fake-live';
import { makeUser } from './builders';
import { json, stubFetchForEachTest, type FetchStub } from './fetch-stub';

const api: FetchStub = stubFetchForEachTest();

afterEach(() => {
  stopLive();
});

function notification(fields: Partial<Notification>): Notification {
  const id = crypto.randomUUID();
  return {
    id,
    kind: 'lol',
    postId: crypto.randomUUID(),
    postThumbnail: null,
    commentId: null,
    actors: [{ id: crypto.randomUUID(), username: 'alice', avatar: null }],
    actorCount: 4,
    read: false,
    updatedAt: new Date().toISOString(),
    cursor: `cursor-${id}`,
    ...fields,
  };
}

async function renderBell(userId: string) {
  const sockets = fakeLiveSockets();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <NotificationBell />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  startLive(userId, () => undefined);
  await waitFor(() => expect(sockets).toHaveLength(1));
  act(() => sockets[0].open());
  return sockets[0];
}

describe('the notifications bell', () => {
  it('counts up live, opens the list, and marks read up to the newest it shows', async () => {
    const me = makeUser();
    let unread = 1;
    const lol = notification({});
    const follow = notification({ kind: 'follow', postId: null, actorCount: 1 });
    const items = [lol];
    api
      .on('GET', '/api/lolgram/notifications/unread-count', () => json({ unread }))
      .on('GET', /^\/api\/lolgram\/notifications\?/, () => json(items))
      .on('POST', '/api/lolgram/notifications/read', () => {
        unread = 0;
        return json({ unread });
      });
    const live = await renderBell(me.id);
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });

    unread = 2;
    items.unshift(follow);
    act(() => live.push('notifications', { unread: 2 }));
    await waitFor(() => expect(bell).toHaveAccessibleName('Notifications, 2 unread'));

    await userEvent.click(bell);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const list = await within(dialog).findByRole('list', { name: 'Notifications' });
    const rows = within(list).getAllByRole('link');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('alice started following you'),
      expect.stringContaining('alice and 3 others LOLed your post'),
    ]);
    expect(rows[0]).toHaveAttribute('href', '/lolgram/alice');
    expect(rows[1]).toHaveAttribute('href', `/lolgram/p/${lol.postId}`);
    await waitFor(() => expect(bell).toHaveAccessibleName('Notifications'));
    const bodies = api.bodies('POST', '/api/lolgram/notifications/read');
    expect(bodies.map((body) => JSON.parse(body as string) as unknown)).toEqual([
      { upTo: follow.cursor },
    ]);
    // Read now, and still marked as new while the list is open.
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.dataset.new),
    ).toEqual(['true', 'true']);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bell).toHaveFocus();
  });

  it('says when there are none, and when they could not be read', async () => {
    const me = makeUser();
    let fail = true;
    api
      .on('GET', '/api/lolgram/notifications/unread-count', () => json({ unread: 0 }))
      .on('GET', /^\/api\/lolgram\/notifications\?/, () =>
        fail ? json({ error: 'Service unavailable' }, 503) : json([]),
      );
    await renderBell(me.id);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to fetch notifications',
    );
    fail = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByText('No notifications yet')).toBeInTheDocument();
  });
});
