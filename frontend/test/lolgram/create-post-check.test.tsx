// @vitest-environment happy-dom
import type { Post } from '@tapgram/shared';
import { QueryClientProvider, type InfiniteData } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCreatePost } from '../../src/features/lolgram/hooks/useCreatePost';
import { useFeed } from '../../src/features/lolgram/hooks/useFeed';
import { lolgramKeys } from '../../src/features/lolgram/hooks/query-keys';
import { dismiss, useToast } from '../../src/hooks/use-toast';
import { createQueryClient } from '../../src/lib/query-client';
import { makePost, makeUser } from './builders';
import { json, stubFetch, type FetchStub } from './fetch-stub';

const FEED = '/api/lolgram/posts/feed?limit=20';
let api: FetchStub;

beforeEach(() => {
  api = stubFetch();
});

afterEach(() => {
  dismiss();
  vi.unstubAllGlobals();
});

function renderCreatePost() {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  // The feed on screen, as in the app: the feed query has an observer, so it is refetched.
  const hook = renderHook(
    () => ({ create: useCreatePost(), toasts: useToast().toasts, feed: useFeed() }),
    { wrapper },
  );
  const feed = () => client.getQueryData<InfiniteData<Post[]>>(lolgramKeys.feed)?.pages[0] ?? [];
  return { hook, client, feed };
}

async function share(
  hook: ReturnType<typeof renderCreatePost>['hook'],
  userId: string,
): Promise<void> {
  await act(() =>
    hook.result.current.create.mutateAsync({ image: new Blob(['x']), caption: 'lol', userId }),
  );
}

describe('sharing a post that is checked before everyone sees it', () => {
  it(
    'shows the author the post at once, marked, and the public copy once checked',
    {
      timeout: 10_000,
    },
    async () => {
      const me = makeUser();
      const created = makePost({ userId: me.id, moderation: 'checking' });
      let checked = false;
      const publicCopy = { ...created, moderation: undefined };
      api
        .on('GET', FEED, () => json(checked ? [publicCopy] : []))
        .on('POST', '/api/lolgram/posts', () => json(created, 201))
        .on('GET', `/api/lolgram/posts/user/${me.id}`, () => {
          checked = true;
          return json([publicCopy]);
        });
      const { hook, feed } = renderCreatePost();
      await waitFor(() => expect(hook.result.current.feed.isSuccess).toBe(true));

      await share(hook, me.id);
      expect(feed().map((p) => [p.id, p.moderation])).toEqual([[created.id, 'checking']]);

      await waitFor(() => expect(feed()[0]?.moderation).toBeUndefined(), { timeout: 5000 });
      expect(feed().map((p) => p.id)).toEqual([created.id]);
    },
  );

  it('tells the author when a moderator has to look at the post first', async () => {
    const me = makeUser();
    const created = makePost({ userId: me.id, moderation: 'checking' });
    api
      .on('GET', FEED, () => json([]))
      .on('POST', '/api/lolgram/posts', () => json(created, 201))
      .on('GET', `/api/lolgram/posts/user/${me.id}`, () =>
        json([{ ...created, moderation: 'held' }]),
      );
    const { hook } = renderCreatePost();
    await share(hook, me.id);
    await waitFor(
      () => expect(hook.result.current.toasts.map((t) => t.title)).toContain('Under review'),
      { timeout: 5000 },
    );
  });
});
