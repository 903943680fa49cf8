// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProfilePage } from '../../src/features/lolgram/ProfilePage';
import { makePost, makeUser } from './builders';
import { json, stubFetch, type FetchStub } from './fetch-stub';
import { renderWithApp, signIn } from './render';

let api: FetchStub;

function openProfile(username: string) {
  renderWithApp(<ProfilePage />, {
    route: `/lolgram/${username}`,
    path: '/lolgram/:username',
    auth: false,
  });
}

function serveProfile(user = makeUser({ username: 'bob', followerCount: 5 })) {
  api
    .on('GET', `/api/lolgram/users/username/${user.username}`, () => json(user))
    .on('GET', new RegExp(`^/api/lolgram/posts/user/${user.id}\\?`), () =>
      json([makePost({ userId: user.id, username: user.username, lolCount: 12, commentCount: 4 })]),
    );
  return user;
}

beforeEach(() => {
  localStorage.clear();
  api = stubFetch();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('public profile', () => {
  it('shows the User Not Found page when the server answers 404', async () => {
    api.on('GET', '/api/lolgram/users/username/ghost', () =>
      json({ error: 'User not found' }, 404),
    );
    openProfile('ghost');

    expect(await screen.findByRole('heading', { name: 'User Not Found' })).toBeTruthy();
    expect(
      screen.getByText("The user @ghost doesn't exist or may have been removed."),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to LOLGram' }).getAttribute('href')).toBe(
      '/lolgram',
    );
  });

  it('shows the profile, with thumbnails and their counts, for an existing user', async () => {
    serveProfile(makeUser({ username: 'bob', bio: 'I tell jokes', isVerified: true }));
    openProfile('bob');

    expect(await screen.findByText('I tell jokes')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '@bob' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Verified' })).toBeTruthy();
    const thumbnail = (await screen.findByAltText('A very funny cat')) as HTMLImageElement;
    expect(thumbnail.getAttribute('src')).toMatch(/-thumb\.jpg$/);
    expect(screen.queryByText('User Not Found')).toBeNull();
  });

  it('hides the follow button from a signed-out visitor', async () => {
    serveProfile();
    openProfile('bob');

    await screen.findByRole('heading', { name: '@bob' });
    await screen.findByRole('img', { name: "bob's avatar" });
    expect(screen.queryByRole('button', { name: /^Follow/ })).toBeNull();
  });

  it('hides the follow button on your own profile', async () => {
    const bob = serveProfile();
    signIn(api, bob);
    openProfile('bob');

    await screen.findByRole('img', { name: "bob's avatar" });
    expect(screen.queryByRole('button', { name: /^Follow/ })).toBeNull();
  });

  it("follows someone else's profile and updates the follower count", async () => {
    const bob = serveProfile();
    const alice = makeUser({ username: 'alice' });
    signIn(api, alice);
    api
      .on('GET', `/api/lolgram/users/${alice.id}/following/${bob.id}`, () =>
        json({ following: false }),
      )
      .on('POST', `/api/lolgram/users/${bob.id}/follow`, () =>
        json({ following: true, followerCount: 6 }),
      );
    openProfile('bob');

    const follow = await screen.findByRole('button', { name: 'Follow' });
    await waitFor(() => expect(follow.hasAttribute('disabled')).toBe(false));
    await userEvent.click(follow);

    expect(await screen.findByRole('button', { name: 'Following' })).toBeTruthy();
    expect(screen.getByTestId('stat-followers').textContent).toBe('6');
    expect(await screen.findByText('You are now following @bob')).toBeTruthy();
    const [call] = api.calls('POST', `/api/lolgram/users/${bob.id}/follow`);
    expect(await call.json()).toEqual({ followerId: alice.id });
  });

  it('says "Login Required" when the server no longer knows the signed-in user', async () => {
    const bob = serveProfile();
    const alice = makeUser({ username: 'alice' });
    signIn(api, alice);
    api
      .on('GET', `/api/lolgram/users/${alice.id}/following/${bob.id}`, () =>
        json({ following: false }),
      )
      .on('POST', `/api/lolgram/users/${bob.id}/follow`, () =>
        json({ error: 'Not signed in' }, 401),
      );
    openProfile('bob');

    const follow = await screen.findByRole('button', { name: 'Follow' });
    await waitFor(() => expect(follow.hasAttribute('disabled')).toBe(false));
    await userEvent.click(follow);

    expect(await screen.findByText('Login Required')).toBeTruthy();
    expect(screen.getByText('Please login to follow users')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Follow' })).toBeTruthy();
  });

  function signedInOnBobsProfile() {
    const bob = serveProfile();
    const alice = makeUser({ username: 'alice' });
    signIn(api, alice);
    api
      .on('GET', `/api/lolgram/users/${alice.id}/following/${bob.id}`, () =>
        json({ following: true }),
      )
      .on('GET', `/api/lolgram/users/${bob.id}/block`, () => json({ blocked: false }));
    openProfile('bob');
    return { alice, bob };
  }

  it('blocks from the profile’s menu once the viewer confirms, then offers Unblock', async () => {
    const { bob } = signedInOnBobsProfile();
    api.on('POST', `/api/lolgram/users/${bob.id}/block`, () => json({ blocked: true }));
    await screen.findByRole('button', { name: 'Following' });

    await userEvent.click(screen.getByRole('button', { name: 'Profile options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Block @bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block @bob?' });
    expect(dialog).toHaveTextContent("They won't be told.");
    expect(api.calls('POST', `/api/lolgram/users/${bob.id}/block`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Block' }));

    expect(await screen.findByRole('button', { name: 'Unblock' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Follow/ })).toBeNull();
    expect(api.calls('POST', `/api/lolgram/users/${bob.id}/block`)).toHaveLength(1);

    api.on('DELETE', `/api/lolgram/users/${bob.id}/block`, () => json({ blocked: false }));
    await userEvent.click(screen.getByRole('button', { name: 'Unblock' }));
    expect(await screen.findByText('@bob is no longer blocked')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Profile options' })).toBeTruthy();
  });

  it('says in the server’s words why a follow was refused', async () => {
    const { bob } = signedInOnBobsProfile();
    api
      .on('DELETE', `/api/lolgram/users/${bob.id}/follow`, () =>
        json({ following: false, followerCount: 4 }),
      )
      .on('POST', `/api/lolgram/users/${bob.id}/follow`, () =>
        json({ error: "You can't follow this account" }, 403),
      );
    await userEvent.click(await screen.findByRole('button', { name: 'Following' }));
    const follow = await screen.findByRole('button', { name: 'Follow' });
    await waitFor(() => expect(follow).toBeEnabled());
    await userEvent.click(follow);
    expect(await screen.findByText("You can't follow this account")).toBeTruthy();
  });

  it('pages a long profile grid with Load more, passing the last post as the cursor', async () => {
    const bob = makeUser({ username: 'bob', postCount: 31 });
    const first = Array.from({ length: 30 }, (_, i) =>
      makePost({ userId: bob.id, caption: `joke ${i}`, cursor: `c${i}` }),
    );
    api
      .on('GET', `/api/lolgram/users/username/bob`, () => json(bob))
      .on('GET', `/api/lolgram/posts/user/${bob.id}?limit=30`, () => json(first))
      .on('GET', `/api/lolgram/posts/user/${bob.id}?limit=30&before=c29`, () =>
        json([makePost({ userId: bob.id, caption: 'the last joke' })]),
      );
    openProfile('bob');

    await screen.findByAltText('joke 29');
    expect(screen.getByTestId('stat-posts').textContent).toBe('31');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByAltText('the last joke')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});
