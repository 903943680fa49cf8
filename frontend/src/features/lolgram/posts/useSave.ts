import type { Post, SaveState } from '@tapgram/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../hooks/use-toast';
import { apiRequest } from '../../../lib/api';
import { patchPost, type PostsData } from './post-cache';
import { isPostsQuery } from '../lib/query-keys';

const isSavedList = (key: readonly unknown[]) => key[2] === 'saved';

/**
 * The save toggle, as the LOL one: shown at once in every list holding the post, rolled back if
 * the server refuses; the Saved grid is read again once the server has answered.
 */
export function useSave(post: Post) {
  const queryClient = useQueryClient();
  const setSaved = (isSaved: boolean) =>
    queryClient.setQueriesData<PostsData>({ predicate: isPostsQuery }, (data) =>
      patchPost(data, post.id, (current) => ({ ...current, isSaved })),
    );

  const mutation = useMutation({
    mutationFn: async (save: boolean) => {
      const res = await apiRequest(save ? 'POST' : 'DELETE', `/api/lolgram/posts/${post.id}/save`);
      return (await res.json()) as SaveState;
    },
    onMutate: async (save) => {
      await queryClient.cancelQueries({ predicate: isPostsQuery });
      setSaved(save);
      return { previous: post.isSaved };
    },
    onError: (_error, save, context) => {
      if (context) setSaved(context.previous);
      toast({
        title: 'Error',
        description: save ? 'Failed to save this post' : 'Failed to remove it from Saved',
        variant: 'destructive',
      });
    },
    onSuccess: ({ isSaved }) => setSaved(isSaved),
    onSettled: () =>
      queryClient.invalidateQueries({ predicate: (query) => isSavedList(query.queryKey) }),
  });

  const toggle = () => {
    if (!mutation.isPending) mutation.mutate(!post.isSaved);
  };
  return { toggle, pending: mutation.isPending };
}
