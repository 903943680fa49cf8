// @vitest-environment happy-dom
import type { Post } from '@tapgram/shared';
import { QueryClientProvider, type InfiniteData } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLive, stopLive } from '../../src/features/auth/live-client';
import { useCreatePost } from '../../src/features/lolgram/create-post/useCreatePost';
import { useFeed } from '../../src/features/lolgram/post-lists/useFeed';
import { useOwnPostsLive } from '../../src/features/lolgram/posts/useOwnPostsLive';
import { lolgramKeys } from '../../src/features/lolgram/lib/query-keys';
import { dismiss, useToast } from '../../src/hooks/use-toast';
import { createQueryClient } from '../../src/lib/query-client';
import { fakeLiveSockets, type FakeLiveSocket } from '../auth/fake-live';
import { makePost, makeUser, postMoved } from './builders';
import { json, stubFetch, type FetchStub } from './fetch-stub';

const FEED = '/api/lolgram/posts/feed?limit=20';
let api: FetchStub;

beforeEach(() => {
  api = stubFetch();
});

afterEach(() => {
  stopLive();
  dismiss();
  vi.unstubAllGlobals();
});

/** The author's screen: signed in, with the live channel open, as LOLGram pages are. */
async function renderCreatePost(userId: string) {
  const sockets = fakeLiveSockets();
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  // The feed on screen, as in the app: the feed query has an observer, so it is refetched.
  const hook = renderHook(
    () => ({
      create: useCreatePost(),
      toasts: useToast().toasts,
      feed: useFeed(),
      live: useOwnPostsLive(),
    }),
    { wrapper },
  );
  startLive(userId, () => undefined);
  await waitFor(() => expect(sockets).toHaveLength(1));
  const live: FakeLiveSocket = sockets[0];
  act(() => live.open());
  const feed = () => client.getQueryData<InfiniteData<Post[]>>(lolgramKeys.feed)?.pages[0] ?? [];
  return { hook, client, feed, live };
}

async function share(
  hook: Awaited<ReturnType<typeof renderCreatePost>>['hook'],
  userId: string,
): Promise<void> {
  await act(() =>
    hook.result.current.create.mutateAsync({ image: new Blob(['x']), caption: 'lol', userId }),
  );
}

describe('sharing a post that is checked before everyone sees it', () => {
  it('shows the author the post at once, marked, and the public copy once checked', async () => {
    const me = makeUser();
    const created = makePost({ userId: me.id, moderation: 'checking' });
    let checked = false;
    const publicCopy = { ...created, moderation: undefined };
    api
      .on('GET', FEED, () => json(checked ? [publicCopy] : []))
      .on('POST', '/api/lolgram/posts', () => json(created, 201))
      .on('GET', `/api/lolgram/posts/user/${me.id}`, () => json([checked ? publicCopy : created]));
    const { hook, feed, live } = await renderCreatePost(me.id);
    await waitFor(() => expect(hook.result.current.feed.isSuccess).toBe(true));

    await share(hook, me.id);
    expect(feed().map((p) => [p.id, p.moderation])).toEqual([[created.id, 'checking']]);

    // The check ends on the server, which tells the author's screens.
    checked = true;
    act(() => live.push('moderation', postMoved(created.id, 'checking', 'visible')));
    await waitFor(() => expect(feed()[0]?.moderation).toBeUndefined());
    expect(feed().map((p) => p.id)).toEqual([created.id]);
  });

  it('tells the author when a moderator has to look at the post first', async () => {
    const me = makeUser();
    const created = makePost({ userId: me.id, moderation: 'checking' });
    api
      .on('GET', FEED, () => json([]))
      .on('POST', '/api/lolgram/posts', () => json(created, 201))
      .on('GET', `/api/lolgram/posts/user/${me.id}`, () =>
        json([{ ...created, moderation: 'held' }]),
      );
    const { hook, live } = await renderCreatePost(me.id);
    await share(hook, me.id);
    act(() => live.push('moderation', postMoved(created.id, 'checking', 'held')));
    await waitFor(() =>
      expect(hook.result.current.toasts.map((t) => t.title)).toContain('Under review'),
    );
  });

  it('reads the feed again at a reconnection while it shows a post under review, not otherwise', async () => {
    const me = makeUser();
    const created = makePost({ userId: me.id, moderation: 'checking' });
    api
      .on('GET', FEED, () => json([]))
      .on('POST', '/api/lolgram/posts', () => json(created, 201))
      .on('GET', `/api/lolgram/posts/user/${me.id}`, () => json([created]));
    const { hook, live } = await renderCreatePost(me.id);
    await waitFor(() => expect(hook.result.current.feed.isSuccess).toBe(true));
    const feedReads = () => api.calls('GET', FEED).length;
    const before = feedReads();
    // A connection that came back while nothing was under review reads nothing again.
    act(() => live.open());

    await share(hook, me.id);
    const shared = feedReads();
    expect(shared).toBe(before + 1);
    // The push of the check's end may have been lost while the connection was away.
    act(() => live.open());
    await waitFor(() => expect(feedReads()).toBe(shared + 1));
  });
});
