import {
  COMMENTS_PAGE,
  type Comment,
  type CommentPage,
  type CommentsOffState,
  type CreateCommentBody,
} from '@tapgram/shared';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useLiveConnect, useLiveEvent } from '../../auth';
import { apiRequest } from '../../../lib/api';
import { isPostsQuery, lolgramKeys } from '../lib/query-keys';

/**
 * A post's thread, oldest first, a page at a time (each reply under its comment). Where the check
 * of one of the reader's own comments left it (public, or held), or a moderator's decision on it,
 * arrives live, and the thread is read again; so it is at every reconnection while one of theirs
 * is still checking, since a push sent meanwhile was lost.
 */
export function useThread(postId: string) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: lolgramKeys.comments(postId),
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(COMMENTS_PAGE) });
      if (pageParam) params.set('after', pageParam);
      const res = await apiRequest(
        'GET',
        `/api/lolgram/posts/${encodeURIComponent(postId)}/comments?${params}`,
      );
      return (await res.json()) as CommentPage;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
  const pages = query.data?.pages ?? [];
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: lolgramKeys.comments(postId) });
  useLiveEvent('moderation', (push) => {
    if (push.contentType === 'comment' && push.postId === postId) refresh();
  });
  useLiveConnect(() => {
    if (pages.some((page) => page.comments.some((comment) => comment.moderation === 'checking'))) {
      refresh();
    }
  });
  return {
    ...query,
    comments: pages.flatMap((page) => page.comments),
    commentsOff: pages[0]?.commentsOff ?? false,
    /** The post's public comments and replies, as the thread was last read. */
    commentCount: pages[0]?.commentCount,
  };
}

/** After a change to a thread: it, and the post's count on every listing, are read again. */
function useRefreshThread(postId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: lolgramKeys.comments(postId) }),
      queryClient.invalidateQueries({ predicate: isPostsQuery }),
    ]);
  };
}

export function useAddComment(postId: string) {
  const refresh = useRefreshThread(postId);
  return useMutation({
    mutationFn: async (body: CreateCommentBody) => {
      const res = await apiRequest(
        'POST',
        `/api/lolgram/posts/${encodeURIComponent(postId)}/comments`,
        body,
      );
      return (await res.json()) as Comment;
    },
    // Sent once the server has it: the box is free for the next comment while the thread and the
    // post's count are read again.
    onSuccess: () => void refresh(),
  });
}

export function useDeleteComment(postId: string) {
  const refresh = useRefreshThread(postId);
  return useMutation({
    mutationFn: async (commentId: string) => {
      await apiRequest('DELETE', `/api/lolgram/comments/${encodeURIComponent(commentId)}`);
    },
    onSuccess: refresh,
  });
}

/** The post's author turns its comments off or on. */
export function useCommentsOff(postId: string) {
  const refresh = useRefreshThread(postId);
  return useMutation({
    mutationFn: async (off: boolean) => {
      const res = await apiRequest(
        off ? 'PUT' : 'DELETE',
        `/api/lolgram/posts/${encodeURIComponent(postId)}/comments-off`,
      );
      return (await res.json()) as CommentsOffState;
    },
    onSuccess: refresh,
  });
}
