// @vitest-environment happy-dom
import { commentMessages, type Comment, type CommentPage } from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { LolgramAuth } from '../../src/features/lolgram/LolgramAuth';
import { PostPage } from '../../src/features/lolgram/PostPage';
import { createQueryClient } from '../../src/lib/query-client';
import { fakeLiveSockets } from '../auth/fake-live';
import { makePost, makeUser } from './builders';
import { deferred, json, noContent, stubFetchForEachTest } from './fetch-stub';
import { renderWithApp, signIn } from './render';

const api = stubFetchForEachTest();

function comment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: crypto.randomUUID(),
    postId: 'p',
    parentId: null,
    userId: 'u1',
    username: 'alice',
    userAvatar: null,
    text: 'so funny',
    deleted: false,
    createdAt: '2026-11-01T12:00:00.000Z',
    ...overrides,
  };
}

function serve(comments: Comment[], extra: Partial<CommentPage> = {}) {
  const post = makePost({ caption: 'a cat', commentCount: comments.length });
  const page: CommentPage = {
    comments: comments.map((c) => ({ ...c, postId: post.id })),
    nextCursor: null,
    commentCount: comments.length,
    commentsOff: false,
    ...extra,
  };
  api
    .on('GET', `/api/lolgram/posts/${post.id}`, () => json(post))
    .on('GET', new RegExp(`^/api/lolgram/posts/${post.id}/comments\\?`), () => json(page))
    .on('POST', '/api/lolgram/posts/views', () => noContent());
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[`/lolgram/p/${post.id}`]}>
        <Routes>
          <Route path="/lolgram/p/:postId" element={<PostPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return post;
}

/** The post's page as the app shows it to a signed-in reader, with the live channel. */
function openAsReader(postId: string) {
  renderWithApp(
    <LolgramAuth>
      <PostPage />
    </LolgramAuth>,
    { auth: false, route: `/lolgram/p/${postId}`, path: '/lolgram/p/:postId' },
  );
}

describe('a post’s thread on its page', () => {
  it('shows comments with their replies under them, and "deleted" for a comment that is gone', async () => {
    const top = comment({ text: 'top comment' });
    serve([
      top,
      comment({ parentId: top.id, text: 'a reply', username: 'bob' }),
      comment({ deleted: true, text: null, userId: null, username: null }),
    ]);
    expect(await screen.findByText('top comment')).toBeTruthy();
    expect(screen.getByText('a reply')).toBeTruthy();
    expect(screen.getByText('This comment was deleted')).toBeTruthy();
    expect(screen.getByText('3 comments')).toBeTruthy();
  });

  it('says so when there are none, and asks a visitor to log in to comment', async () => {
    serve([]);
    expect(await screen.findByText('No comments yet. Be the first!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log in to comment' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Add a comment' })).toBeNull();
  });

  it('shows the server’s words when a comment is refused (429, 403)', async () => {
    signIn(api, makeUser({ username: 'carol' }));
    const post = serve([]);
    let answer = json({ error: commentMessages.tooManyByUser }, 429);
    api.on('POST', `/api/lolgram/posts/${post.id}/comments`, () => answer);
    const box = await screen.findByRole('textbox', { name: 'Add a comment' });
    await userEvent.type(box, 'hello{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe(commentMessages.tooManyByUser);
    answer = json({ error: commentMessages.cannotComment }, 403);
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(
      await within(box.closest('form')!).findByText(commentMessages.cannotComment),
    ).toBeTruthy();
    // An empty comment is not sent.
    await userEvent.clear(box);
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('Write a comment first')).toBeTruthy();
  });

  it('keeps a reply chosen, and words typed, while the comment just sent is still being shown', async () => {
    const me = makeUser({ username: 'carol' });
    signIn(api, me);
    const post = makePost({ caption: 'a cat', commentCount: 0 });
    const mine = comment({ postId: post.id, userId: me.id, username: 'carol', text: 'first!' });
    let sent = false;
    let postRead: ReturnType<typeof deferred> | null = null;
    api
      .on('GET', `/api/lolgram/posts/${post.id}`, () => postRead?.promise ?? json(post))
      .on('GET', new RegExp(`^/api/lolgram/posts/${post.id}/comments\\?`), () =>
        json({
          comments: sent ? [mine] : [],
          nextCursor: null,
          commentCount: sent ? 1 : 0,
          commentsOff: false,
        } satisfies CommentPage),
      )
      .on('POST', `/api/lolgram/posts/${post.id}/comments`, () => {
        sent = true;
        postRead = deferred();
        return json(mine, 201);
      })
      .on('POST', '/api/lolgram/posts/views', () => noContent());
    openAsReader(post.id);
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'Add a comment' }),
      'first!{Enter}',
    );
    // The thread shows the comment; the post's count is still being read again.
    await userEvent.click(await screen.findByRole('button', { name: 'Reply to carol' }));
    const box = screen.getByRole('textbox', { name: 'Reply to @carol' });
    await userEvent.type(box, 'and');
    await act(async () => postRead!.settle(json({ ...post, commentCount: 1 })));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Post' })).toBeEnabled());
    expect(screen.getByRole('textbox', { name: 'Reply to @carol' })).toHaveValue('and');
  });

  it('shows where the check left the reader’s own comment when the server pushes it, with no polling', async () => {
    // No interval ever fires: what the thread learns, it learns from the push.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => void vi.useRealTimers());
    const sockets = fakeLiveSockets();
    const me = makeUser({ username: 'carol' });
    signIn(api, me);
    const post = makePost({ caption: 'a cat', commentCount: 0 });
    const mine = comment({ postId: post.id, userId: me.id, username: 'carol', text: 'my take' });
    let checked = false;
    api
      .on('GET', `/api/lolgram/posts/${post.id}`, () => json(post))
      .on('GET', new RegExp(`^/api/lolgram/posts/${post.id}/comments\\?`), () =>
        json({
          comments: [checked ? mine : { ...mine, moderation: 'checking' }],
          nextCursor: null,
          commentCount: checked ? 1 : 0,
          commentsOff: false,
        } satisfies CommentPage),
      )
      .on('POST', '/api/lolgram/posts/views', () => noContent());
    openAsReader(post.id);
    expect(await screen.findByText('Checking…')).toBeTruthy();
    await waitFor(() => expect(sockets).toHaveLength(1));
    act(() => sockets[0].open());
    checked = true;
    act(() =>
      sockets[0].push('moderation', {
        contentType: 'comment',
        contentId: mine.id,
        postId: post.id,
        status: 'visible',
        previous: 'checking',
        edit: false,
      }),
    );
    await waitFor(() => expect(screen.queryByText('Checking…')).toBeNull());
    expect(screen.getByText('my take')).toBeTruthy();
  });
});
