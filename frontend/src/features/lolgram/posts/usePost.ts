import type { Post } from '@tapgram/shared';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api';
import { lolgramKeys } from '../lib/query-keys';

/**
 * One post, for its own page. The server answers 404 for a post the viewer may not see and 400
 * for what is not a post id: to a visitor both are a post that is not there.
 */
export function usePost(postId: string) {
  const query = useQuery<Post>({ queryKey: lolgramKeys.post(postId), enabled: postId !== '' });
  const missing =
    postId === '' ||
    (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400));
  return { ...query, missing };
}
