import type { LolgramUser } from '@tapgram/shared';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../hooks/use-toast';
import { ApiError } from '../../../lib/api';
import { useFollow } from './useFollow';
import { useFollowStatus } from './useFollowStatus';

/** Follow/Following for someone else's profile; the caller shows it only to a signed-in viewer. */
export function FollowButton({ viewerId, target }: { viewerId: string; target: LolgramUser }) {
  const status = useFollowStatus(viewerId, target.id);
  const follow = useFollow(target);
  const following = status.data?.following ?? false;

  const toggle = () => {
    const next = !following;
    follow.mutate(
      { follow: next, followerId: viewerId },
      {
        onSuccess: () =>
          toast(
            next
              ? { title: 'Following!', description: `You are now following @${target.username}` }
              : {
                  title: 'Unfollowed',
                  description: `You are no longer following @${target.username}`,
                },
          ),
        onError: (error) =>
          toast(
            error instanceof ApiError && error.status === 401
              ? { title: 'Login Required', description: 'Please login to follow users' }
              : {
                  title: 'Error',
                  // A refusal says why in its own words ("You can't follow this account").
                  description:
                    error instanceof ApiError && error.status === 403
                      ? error.message
                      : next
                        ? 'Failed to follow user'
                        : 'Failed to unfollow user',
                  variant: 'destructive',
                },
          ),
      },
    );
  };

  return (
    <Button
      size="lg"
      variant={following ? 'secondary' : 'default'}
      className="w-full"
      aria-pressed={following}
      disabled={status.isPending || follow.isPending}
      onClick={toggle}
    >
      {following ? 'Following' : 'Follow'}
    </Button>
  );
}
