import type { EditPostBody, Post } from '@tapgram/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { patchPost, removePost, type PostsData } from './post-cache';
import { isPostsQuery, lolgramKeys } from '../lib/query-keys';

/**
 * The author's new caption, in every list holding the post once the server took it, with where
 * its check stands (others read the caption before it until the check passes).
 */
export function useEditCaption(post: Post) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: EditPostBody) => {
      const res = await apiRequest('PATCH', `/api/lolgram/posts/${post.id}`, body);
      return (await res.json()) as Post;
    },
    onSuccess: (updated) => {
      queryClient.setQueriesData<PostsData>({ predicate: isPostsQuery }, (data) =>
        patchPost(data, post.id, (current) => ({
          ...current,
          caption: updated.caption,
          editModeration: updated.editModeration,
        })),
      );
      // The check's outcome may have been pushed before this answer came: read where it stands.
      void queryClient.invalidateQueries({ predicate: isPostsQuery });
    },
  });
}

/** Deletes the author's post: it leaves every list at once, and the counts are read again. */
export function useDeletePost(post: Post) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', `/api/lolgram/posts/${post.id}`),
    onSuccess: async () => {
      await queryClient.cancelQueries({ predicate: isPostsQuery });
      queryClient.setQueriesData<PostsData>({ predicate: isPostsQuery }, (data) =>
        removePost(data, post.id),
      );
      queryClient.removeQueries({ queryKey: lolgramKeys.post(post.id), exact: true });
      void queryClient.invalidateQueries({ queryKey: lolgramKeys.locatedCount });
      void queryClient.invalidateQueries({ queryKey: lolgramKeys.usersByUsername });
    },
  });
}
