import { type LolState, type Post } from '@tapgram/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from '../../../hooks/use-toast';
import { ApiError, apiRequest } from '../../../lib/api';
import { patchPost, type PostsData } from './post-cache';
import { isPostsQuery } from '../lib/query-keys';
import { LOL_ANIMATION_MS } from '../../../lib/ui-constants';

/** The LOL toggle: shown at once in every list holding the post, rolled back if the server refuses. */
export function useLol(post: Post) {
  const queryClient = useQueryClient();
  const [celebrating, setCelebrating] = useState(false);

  useEffect(() => {
    if (!celebrating) return;
    const timer = setTimeout(() => setCelebrating(false), LOL_ANIMATION_MS);
    return () => clearTimeout(timer);
  }, [celebrating]);

  const setState = (state: LolState) =>
    queryClient.setQueriesData<PostsData>({ predicate: isPostsQuery }, (data) =>
      patchPost(data, post.id, (current) => ({ ...current, ...state })),
    );

  const mutation = useMutation({
    mutationFn: async (like: boolean) => {
      const res = await apiRequest(like ? 'POST' : 'DELETE', `/api/lolgram/posts/${post.id}/lol`);
      return (await res.json()) as LolState;
    },
    onMutate: async (like) => {
      await queryClient.cancelQueries({ predicate: isPostsQuery });
      const previous: LolState = { isLiked: post.isLiked, lolCount: post.lolCount };
      setState({ isLiked: like, lolCount: Math.max(0, post.lolCount + (like ? 1 : -1)) });
      return { previous };
    },
    onError: (error, like, context) => {
      if (context) setState(context.previous);
      toast({
        title: 'Error',
        // A refusal says why in its own words ("You can't LOL this post").
        description:
          error instanceof ApiError && error.status === 403
            ? error.message
            : like
              ? 'Failed to LOL this post'
              : 'Failed to remove your LOL',
        variant: 'destructive',
      });
    },
    onSuccess: (state) => setState(state),
  });

  const toggle = () => {
    if (mutation.isPending) return;
    const like = !post.isLiked;
    if (like) setCelebrating(true);
    mutation.mutate(like);
  };

  return { toggle, celebrating, pending: mutation.isPending };
}
