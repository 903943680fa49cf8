// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FeedTab } from '../../src/features/lolgram/tabs/FeedTab';
import { makePost, makeUser } from './builders';
import { deferred, json, noContent, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp, signIn } from './render';

const FEED = '/api/lolgram/posts/feed?limit=20';
const api = stubFetchForEachTest();

/** Replaces a property of `navigator` (share, clipboard) for one test. */
function onNavigator(name: 'share' | 'clipboard', value: unknown) {
  Object.defineProperty(navigator, name, { value, configurable: true, writable: true });
}
afterEach(() => {
  for (const name of ['share', 'clipboard'] as const) {
    Object.defineProperty(navigator, name, { value: undefined, configurable: true });
  }
});

async function renderFeed(
  overrides: Parameters<typeof makePost>[0] = {},
  { signedIn = true, owner = false } = {},
) {
  const viewer = makeUser({ username: 'viewer' });
  const post = makePost({
    caption: 'a funny cat',
    ...(owner ? { userId: viewer.id, username: 'viewer' } : {}),
    ...overrides,
  });
  api.on('GET', FEED, () => json([post]));
  if (signedIn) signIn(api, viewer);
  renderWithApp(<FeedTab onCreatePost={() => {}} />);
  const card = await screen.findByRole('article', { name: `Post by ${post.username}` });
  return { post, card };
}

describe('the save button', () => {
  it('saves at once, then keeps the server answer', async () => {
    const reply = deferred();
    const { post, card } = await renderFeed();
    api.on('POST', `/api/lolgram/posts/${post.id}/save`, () => reply.promise);

    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    const saved = within(card).getByRole('button', { name: 'Remove from Saved' });
    expect(saved).toHaveAttribute('aria-pressed', 'true');

    reply.settle(json({ isSaved: true }));
    await waitFor(() =>
      expect(api.calls('POST', `/api/lolgram/posts/${post.id}/save`)).toHaveLength(1),
    );
    expect(within(card).getByRole('button', { name: 'Remove from Saved' })).toBeTruthy();
  });

  it('rolls back and says so when the server refuses', async () => {
    const { post, card } = await renderFeed({ isSaved: true });
    api.on('DELETE', `/api/lolgram/posts/${post.id}/save`, () => json({ error: 'Boom' }, 500));

    await userEvent.click(within(card).getByRole('button', { name: 'Remove from Saved' }));

    expect(await screen.findByText('Failed to remove it from Saved')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Remove from Saved' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('asks a visitor to sign in instead of saving', async () => {
    const { post, card } = await renderFeed({}, { signedIn: false });
    await userEvent.click(within(card).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please login to save posts')).toBeTruthy();
    expect(api.calls('POST', `/api/lolgram/posts/${post.id}/save`)).toHaveLength(0);
  });
});

describe('the share button', () => {
  it('opens the system share sheet with the post’s title, caption and address', async () => {
    const share = vi.fn(async () => undefined);
    onNavigator('share', share);
    const { post, card } = await renderFeed({}, { signedIn: false });

    await userEvent.click(within(card).getByRole('button', { name: 'Share' }));

    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith({
      title: 'bob on LOLGram',
      text: 'a funny cat',
      url: `${window.location.origin}/lolgram/p/${post.id}`,
    });
    expect(screen.queryByText('Link copied')).toBeNull();
  });

  it('says nothing when the user closes the share sheet', async () => {
    const share = vi.fn(async () => {
      throw new DOMException('Share canceled', 'AbortError');
    });
    const writeText = vi.fn(async () => undefined);
    onNavigator('share', share);
    onNavigator('clipboard', { writeText });
    const { card } = await renderFeed();

    await userEvent.click(within(card).getByRole('button', { name: 'Share' }));

    await waitFor(() => expect(within(card).getByRole('button', { name: 'Share' })).toBeEnabled());
    expect(share).toHaveBeenCalledTimes(1);
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.queryByText('Link copied')).toBeNull();
    expect(screen.queryByText('Error')).toBeNull();
  });

  it('copies the link where there is no share sheet, and says so', async () => {
    const writeText = vi.fn(async () => undefined);
    onNavigator('clipboard', { writeText });
    const { post, card } = await renderFeed();

    await userEvent.click(within(card).getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/lolgram/p/${post.id}`);
  });

  it('cannot share the author’s post that the public does not see yet', async () => {
    const { card } = await renderFeed({ moderation: 'held' }, { owner: true });
    expect(within(card).getByRole('button', { name: 'Share' })).toBeDisabled();
    expect(within(card).getByRole('button', { name: 'Save' })).toBeDisabled();
  });
});

describe('the author’s menu', () => {
  it('offers the post’s link, its caption and deleting it; not the raw image', async () => {
    const writeText = vi.fn(async () => undefined);
    onNavigator('clipboard', { writeText });
    const { post, card } = await renderFeed({}, { owner: true });

    await userEvent.click(within(card).getByRole('button', { name: 'Post options' }));
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual(['Copy post link', 'Edit caption', 'Delete']);

    await userEvent.click(screen.getByRole('menuitem', { name: 'Copy post link' }));
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/lolgram/p/${post.id}`);
  });

  it('edits the caption by the caption rules, and shows the new one', async () => {
    const { post, card } = await renderFeed({}, { owner: true });
    // The server takes the edit: the feed, read again after it, has the new caption too.
    api.on('PATCH', `/api/lolgram/posts/${post.id}`, () => {
      const edited = { ...post, caption: 'an even funnier cat' };
      api.on('GET', FEED, () => json([edited]));
      return json(edited);
    });
    await userEvent.click(within(card).getByRole('button', { name: 'Post options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit caption' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit caption' });
    const field = within(dialog).getByLabelText('Caption');
    expect(field).toHaveValue('a funny cat');

    await userEvent.clear(field);
    await userEvent.type(field, '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Caption is required');
    expect(api.calls('PATCH', `/api/lolgram/posts/${post.id}`)).toHaveLength(0);

    await userEvent.clear(field);
    await userEvent.type(field, ' an even funnier cat ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.bodies('PATCH', `/api/lolgram/posts/${post.id}`)).toEqual([
      JSON.stringify({ caption: 'an even funnier cat' }),
    ]);
    expect(within(card).getByText('an even funnier cat')).toBeTruthy();
  });

  it('deletes only after the author confirms, and the post leaves the feed', async () => {
    const { post, card } = await renderFeed({}, { owner: true });
    api.on('DELETE', `/api/lolgram/posts/${post.id}`, () => noContent());
    const open = async () => {
      await userEvent.click(within(card).getByRole('button', { name: 'Post options' }));
      await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
      return screen.findByRole('dialog', { name: 'Delete this post?' });
    };

    await userEvent.click(within(await open()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('DELETE', `/api/lolgram/posts/${post.id}`)).toHaveLength(0);

    await userEvent.click(within(await open()).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Post deleted')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('article')).toBeNull());
    expect(api.calls('DELETE', `/api/lolgram/posts/${post.id}`)).toHaveLength(1);
  });

  it('keeps the dialog open and says why when deleting fails', async () => {
    const { post, card } = await renderFeed({}, { owner: true });
    api.on('DELETE', `/api/lolgram/posts/${post.id}`, () => json({ error: 'Post not found' }, 404));
    await userEvent.click(within(card).getByRole('button', { name: 'Post options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this post?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Post not found');
    expect(screen.getByRole('article')).toBeTruthy();
  });
});
