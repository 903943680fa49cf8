// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FeedTab } from '../../src/features/lolgram/tabs/FeedTab';
import { LoginPromptProvider } from '../../src/features/lolgram/ui/login-prompt';
import { makePost, makeUser } from './builders';
import { deferred, json, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp, signIn } from './render';

const FEED = '/api/lolgram/posts/feed?limit=20';
const api = stubFetchForEachTest();

async function renderPost(overrides: Parameters<typeof makePost>[0] = {}, signedIn = true) {
  const post = makePost({ lolCount: 3, isLiked: false, ...overrides });
  api.on('GET', FEED, () => json([post]));
  if (signedIn) signIn(api, makeUser({ username: 'viewer' }));
  renderWithApp(<FeedTab onCreatePost={() => {}} />);
  await screen.findByText(`${post.lolCount} LOLs`);
  return post;
}

describe('post card LOL toggle', () => {
  it('counts the LOL at once, then keeps the server answer', async () => {
    const reply = deferred();
    const post = await renderPost();
    api.on('POST', `/api/lolgram/posts/${post.id}/lol`, () => reply.promise);

    await userEvent.click(screen.getByRole('button', { name: 'LOL' }));

    expect(screen.getByText('4 LOLs')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove LOL' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByTestId('lol-animation')).toBeTruthy();

    reply.settle(json({ lolCount: 7, isLiked: true }));
    expect(await screen.findByText('7 LOLs')).toBeTruthy();
  });

  it('rolls back and shows a destructive toast when the server refuses', async () => {
    const post = await renderPost();
    api.on('POST', `/api/lolgram/posts/${post.id}/lol`, () => json({ error: 'Boom' }, 500));

    await userEvent.click(screen.getByRole('button', { name: 'LOL' }));

    await waitFor(() => expect(screen.getByText('3 LOLs')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'LOL' }).getAttribute('aria-pressed')).toBe('false');
    expect(await screen.findByText('Failed to LOL this post')).toBeTruthy();
  });

  it('removes a LOL with DELETE', async () => {
    const post = await renderPost({ isLiked: true, lolCount: 2 });
    api.on('DELETE', `/api/lolgram/posts/${post.id}/lol`, () =>
      json({ lolCount: 1, isLiked: false }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Remove LOL' }));

    expect(await screen.findByText('1 LOL')).toBeTruthy();
    expect(api.calls('DELETE', `/api/lolgram/posts/${post.id}/lol`)).toHaveLength(1);
  });

  it('asks a signed-out visitor to sign in instead of sending the LOL', async () => {
    const post = await renderPost({}, false);
    await userEvent.click(screen.getByRole('button', { name: 'LOL' }));
    expect(await screen.findByText('Login Required')).toBeTruthy();
    expect(screen.getByText('Please login to LOL posts')).toBeTruthy();
    expect(screen.getByText('3 LOLs')).toBeTruthy();
    expect(api.calls('POST', `/api/lolgram/posts/${post.id}/lol`)).toHaveLength(0);
  });

  it('opens the sign-in dialog of the app when there is one', async () => {
    const post = makePost({ lolCount: 3 });
    api.on('GET', FEED, () => json([post]));
    const openLogin = vi.fn();
    renderWithApp(
      <LoginPromptProvider value={openLogin}>
        <FeedTab onCreatePost={() => {}} />
      </LoginPromptProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'LOL' }));
    expect(openLogin).toHaveBeenCalledTimes(1);
    expect(api.calls('POST', `/api/lolgram/posts/${post.id}/lol`)).toHaveLength(0);
  });
});
