import type { Post } from '@tapgram/shared';
import { useQuery } from '@tanstack/react-query';
import { lolgramKeys } from './query-keys';

export function useUserPosts(userId: string | undefined) {
  return useQuery<Post[]>({
    queryKey: lolgramKeys.userPosts(userId ?? ''),
    enabled: Boolean(userId),
  });
}
