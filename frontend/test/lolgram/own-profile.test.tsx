// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LolgramAuth } from '../../src/features/lolgram/LolgramAuth';
import { ProfileTab } from '../../src/features/lolgram/tabs/ProfileTab';
import { fakeLiveSockets } from '../auth/fake-live';
import { makePost, makeUser } from './builders';
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
    act(() =>
      sockets[0].push('post.moderation', {
        postId: post.id,
        status: 'visible',
        previous: 'checking',
      }),
    );
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
});
