// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LolgramAuth } from '../../src/features/lolgram/LolgramAuth';
import { ProfileTab } from '../../src/features/lolgram/tabs/ProfileTab';
import { fakeLiveSockets } from '../auth/fake-live';
import { makePost, makeUser, postMoved } from './builders';
import { json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp, signIn } from './render';

const api = stubFetchForEachTest();

describe('your own profile', () => {
  it('marks a new post under check, and asks again when the check is over', async () => {
    const sockets = fakeLiveSockets();
    const me = makeUser({ username: 'alice', postCount: 0 });
    signIn(api, me);
    const post = makePost({ userId: me.id, username: 'alice', caption: 'fresh joke' });
    let checked = false;
    api
      .on('GET', '/api/lolgram/users/username/alice', () => json(me))
      .on('GET', `/api/lolgram/posts/user/${me.id}?limit=30`, () =>
        json([checked ? post : { ...post, moderation: 'checking' }]),
      );
    renderWithApp(
      <LolgramAuth>
        <ProfileTab onLogin={() => {}} />
      </LolgramAuth>,
      { auth: false },
    );

    expect(await screen.findByText('Checking…')).toBeTruthy();
    await waitFor(() => expect(sockets).toHaveLength(1));
    act(() => sockets[0].open());
    // The check ends on the server, which tells the author's screens.
    checked = true;
    act(() => sockets[0].push('moderation', postMoved(post.id, 'checking', 'visible')));
    await waitFor(() => expect(screen.queryByText('Checking…')).toBeNull(), { timeout: 5000 });
    expect(screen.getByAltText('fresh joke')).toBeTruthy();
  });

  it('shows a held post to its author as under review', async () => {
    const me = makeUser({ username: 'alice', postCount: 0 });
    signIn(api, me);
    api
      .on('GET', '/api/lolgram/users/username/alice', () => json(me))
      .on('GET', `/api/lolgram/posts/user/${me.id}?limit=30`, () =>
        json([makePost({ userId: me.id, moderation: 'held' })]),
      );
    renderWithApp(<ProfileTab onLogin={() => {}} />);
    expect(await screen.findByText('Under review')).toBeTruthy();
    expect(screen.getByTestId('stat-posts').textContent).toBe('0');
  });

  function onOwnProfile() {
    const me = makeUser({ username: 'alice' });
    signIn(api, me);
    api
      .on('GET', '/api/lolgram/users/username/alice', () => json(me))
      .on('GET', `/api/lolgram/posts/user/${me.id}?limit=30`, () => json([]));
    renderWithApp(<ProfileTab onLogin={() => {}} />);
    return me;
  }

  it('shows the Saved grid in a tab of its own, read only when opened', async () => {
    const me = onOwnProfile();
    api.on('GET', `/api/lolgram/users/${me.id}/saved?limit=30`, () =>
      json([makePost({ caption: 'kept for later', isSaved: true })]),
    );
    await screen.findByText('No posts yet');
    expect(api.calls('GET', /\/saved/)).toHaveLength(0);

    await userEvent.click(screen.getByRole('tab', { name: 'Saved' }));
    const panel = await screen.findByRole('tabpanel', { name: 'Saved' });
    expect(await within(panel).findByAltText('kept for later')).toBeTruthy();
  });

  it('says when nothing is saved yet, and that only its owner sees it', async () => {
    const me = onOwnProfile();
    api.on('GET', `/api/lolgram/users/${me.id}/saved?limit=30`, () => json([]));
    await userEvent.click(await screen.findByRole('tab', { name: 'Saved' }));
    expect(await screen.findByText('No saved posts yet')).toBeTruthy();
    expect(screen.getByText(/Only you can see what you saved/)).toBeTruthy();
  });

  it('lists the blocked accounts and unblocks one', async () => {
    const me = onOwnProfile();
    const blocked = {
      id: makeUser().id,
      username: 'troll',
      avatar: null,
      blockedAt: '2026-11-01T12:00:00.000Z',
      cursor: 'c1',
    };
    let list = [blocked];
    api
      .on('GET', `/api/lolgram/users/${me.id}/blocked?limit=30`, () => json(list))
      .on('DELETE', `/api/lolgram/users/${blocked.id}/block`, () => {
        list = [];
        return json({ blocked: false });
      });
    await userEvent.click(await screen.findByRole('tab', { name: 'Blocked' }));
    const rows = await screen.findByRole('list', { name: 'Blocked accounts' });
    expect(within(rows).getByText('troll')).toBeTruthy();

    await userEvent.click(within(rows).getByRole('button', { name: 'Unblock @troll' }));
    expect(await screen.findByText('@troll is no longer blocked')).toBeTruthy();
    expect(await screen.findByText('No blocked accounts')).toBeTruthy();
  });
});
