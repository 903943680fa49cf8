import type { FollowStatus } from '@tapgram/shared';
import { useQuery } from '@tanstack/react-query';
import { lolgramKeys } from '../lib/query-keys';

/** Whether `followerId` follows `userId`; idle until both are known. */
export function useFollowStatus(followerId: string | undefined, userId: string | undefined) {
  return useQuery<FollowStatus>({
    queryKey: lolgramKeys.followStatus(followerId ?? '', userId ?? ''),
    enabled: Boolean(followerId && userId && followerId !== userId),
  });
}
