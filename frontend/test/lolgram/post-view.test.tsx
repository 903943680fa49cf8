// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { AuthProvider } from '../../src/features/auth';
import { PostPage } from '../../src/features/lolgram/PostPage';
import { ProfilePage } from '../../src/features/lolgram/ProfilePage';
import { ExploreTab } from '../../src/features/lolgram/tabs/ExploreTab';
import { createQueryClient } from '../../src/lib/query-client';
import { makePost, makeUser } from './builders';
import { json, noContent, stubFetchForEachTest } from './fetch-stub';
import { signIn } from './render';

const FEED = '/api/lolgram/posts/feed?limit=20';
/** A grid tile: a link named by its image's caption (then its counts, on grids that show them). */
const tileOf = (caption: string) => screen.findByRole('link', { name: new RegExp(`^${caption}`) });
const api = stubFetchForEachTest();

/** The app's LOLGram routes: Explore, a public profile and a post's own page. */
function renderRoutes(route: string) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route
            path="/lolgram"
            element={
              <AuthProvider>
                <ExploreTab />
              </AuthProvider>
            }
          />
          <Route path="/lolgram/:username" element={<ProfilePage />} />
          <Route path="/lolgram/p/:postId" element={<PostPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function servePost(overrides: Parameters<typeof makePost>[0] = {}) {
  const post = makePost({ caption: 'cat falls off a table', lolCount: 4, ...overrides });
  api
    .on('GET', `/api/lolgram/posts/${post.id}`, () => json(post))
    .on('POST', '/api/lolgram/posts/views', () => noContent());
  return post;
}

/** The post view: the post's card with its image, caption, author, LOLs and LOL button. */
async function expectPostView(post: ReturnType<typeof makePost>) {
  expect(await screen.findByRole('heading', { name: 'Post' })).toBeTruthy();
  const card = await screen.findByRole('article', { name: `Post by ${post.username}` });
  expect(within(card).getByRole('img', { name: post.caption }).getAttribute('src')).toBe(
    post.imageUrl,
  );
  expect(within(card).getByText(post.caption)).toBeTruthy();
  expect(within(card).getAllByRole('link', { name: post.username })[0].getAttribute('href')).toBe(
    `/lolgram/${post.username}`,
  );
  expect(within(card).getByText(`${post.lolCount} LOLs`)).toBeTruthy();
  expect(within(card).getByRole('button', { name: 'LOL' })).toBeTruthy();
  return card;
}

describe('a post on its own page', () => {
  it('opens from a tile of Explore, at the post’s own address, and Back returns to Explore', async () => {
    const post = servePost();
    api.on('GET', FEED, () => json([makePost({ caption: 'another one' }), post]));
    renderRoutes('/lolgram');

    const tile = await tileOf(post.caption);
    expect(tile.getAttribute('href')).toBe(`/lolgram/p/${post.id}`);
    await userEvent.click(tile);

    await expectPostView(post);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await tileOf('another one')).toBeTruthy();
  });

  it('opens from a tile of a profile grid', async () => {
    const bob = makeUser({ username: 'bob' });
    const post = servePost({ userId: bob.id, username: bob.username });
    api
      .on('GET', '/api/lolgram/users/username/bob', () => json(bob))
      .on('GET', new RegExp(`^/api/lolgram/posts/user/${bob.id}\\?`), () => json([post]));
    renderRoutes('/lolgram/bob');

    await userEvent.click(await tileOf(post.caption));

    await expectPostView(post);
  });

  it('opens directly from its address, with the options menu and a LOL that counts', async () => {
    signIn(api, makeUser({ username: 'viewer' }));
    const post = servePost();
    api.on('POST', `/api/lolgram/posts/${post.id}/lol`, () => json({ lolCount: 5, isLiked: true }));
    renderRoutes(`/lolgram/p/${post.id}`);

    const card = await expectPostView(post);
    await userEvent.click(await within(card).findByRole('button', { name: 'Post options' }));
    expect(screen.getByRole('menuitem', { name: 'Report' })).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'LOL' }));
    expect(await within(card).findByText('5 LOLs')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Remove LOL' })).toBeTruthy();
  });

  it.each([
    { what: 'a post the server does not show (404)', status: 404, error: 'Post not found' },
    { what: 'an address that is not a post id (400)', status: 400, error: 'Invalid id' },
  ])('says Post Not Found for $what', async ({ status, error }) => {
    api.on('GET', /^\/api\/lolgram\/posts\/[^/]+$/, () => json({ error }, status));
    renderRoutes('/lolgram/p/gone');

    expect(await screen.findByRole('heading', { name: 'Post Not Found' })).toBeTruthy();
    expect(screen.getByText("This post doesn't exist or may have been removed.")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to LOLGram' }).getAttribute('href')).toBe(
      '/lolgram',
    );
  });

  it('opens the sign-in dialog over the post when a visitor LOLs it, and stays on the post', async () => {
    const post = servePost();
    const viewer = makeUser({ username: 'viewer' });
    api.on('POST', '/api/lolgram/users/login', () => json(viewer));
    renderRoutes(`/lolgram/p/${post.id}`);
    const card = await expectPostView(post);

    await userEvent.click(within(card).getByRole('button', { name: 'LOL' }));
    // A first visit on this device: the dialog opens on signing up, which signs in a known name.
    const dialog = await screen.findByRole('dialog', { name: 'Join LOLGram' });
    expect(screen.queryByText('Login Required')).toBeNull();
    await userEvent.type(within(dialog).getByLabelText('Username'), 'viewer');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Account' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Post' })).toBeTruthy();
    // Read again for who is asking now (their LOLs and saves).
    await waitFor(() => expect(api.calls('GET', `/api/lolgram/posts/${post.id}`)).toHaveLength(2));
    expect(api.calls('POST', `/api/lolgram/posts/${post.id}/lol`)).toHaveLength(0);
  });

  it('leaves its page once its author deleted it', async () => {
    const author = makeUser({ username: 'author' });
    signIn(api, author);
    const post = servePost({ userId: author.id, username: author.username });
    api
      .on('DELETE', `/api/lolgram/posts/${post.id}`, () => noContent())
      .on('GET', FEED, () => json([makePost({ caption: 'what is left' })]));
    renderRoutes(`/lolgram/p/${post.id}`);
    const card = await expectPostView(post);

    await userEvent.click(within(card).getByRole('button', { name: 'Post options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this post?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await tileOf('what is left')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Post Not Found' })).toBeNull();
  });
});
