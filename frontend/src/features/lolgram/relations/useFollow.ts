import type { FollowStatus, LolgramUser } from '@tapgram/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { lolgramKeys } from '../lib/query-keys';

interface FollowInput {
  follow: boolean;
  followerId: string;
}

/** Follows (POST) or unfollows (DELETE) `target`, then updates the status and follower count. */
export function useFollow(target: LolgramUser) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ follow, followerId }: FollowInput) => {
      const res = await apiRequest(
        follow ? 'POST' : 'DELETE',
        `/api/lolgram/users/${target.id}/follow`,
        { followerId },
      );
      return (await res.json()) as FollowStatus;
    },
    onSuccess: (status, { follow, followerId }) => {
      queryClient.setQueryData<FollowStatus>(lolgramKeys.followStatus(followerId, target.id), {
        following: status.following,
      });
      queryClient.setQueryData<LolgramUser>(lolgramKeys.userByUsername(target.username), (user) =>
        user
          ? {
              ...user,
              followerCount:
                status.followerCount ?? Math.max(0, user.followerCount + (follow ? 1 : -1)),
            }
          : user,
      );
    },
  });
}
