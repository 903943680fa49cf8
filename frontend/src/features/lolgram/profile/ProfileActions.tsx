import type { LolgramUser } from '@tapgram/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../hooks/use-toast';
import { useBlockStatus, useSetBlocked, BlockUserDialog, FollowButton } from '../relations';
import { PostOptionsMenu } from '../ui/PostOptionsMenu';

/**
 * What a signed-in viewer does on someone else's profile: follow them, or block them from its
 * menu; once blocked, the one button is Unblock.
 */
export function ProfileActions({ viewerId, target }: { viewerId: string; target: LolgramUser }) {
  const status = useBlockStatus(viewerId, target.id);
  const unblock = useSetBlocked(target);
  const [blocking, setBlocking] = useState(false);

  if (status.data?.blocked) {
    return (
      <Button
        size="lg"
        variant="secondary"
        className="w-full"
        disabled={unblock.isPending}
        onClick={() =>
          unblock.mutate(false, {
            onSuccess: () =>
              toast({
                title: 'Unblocked',
                description: `@${target.username} is no longer blocked`,
              }),
            onError: () =>
              toast({ title: 'Error', description: 'Failed to unblock', variant: 'destructive' }),
          })
        }
      >
        {unblock.isPending ? 'Unblocking...' : 'Unblock'}
      </Button>
    );
  }
  return (
    <div className="flex items-center gap-2">
      <div className="flex-1">
        <FollowButton viewerId={viewerId} target={target} />
      </div>
      <PostOptionsMenu
        label="Profile options"
        items={[
          {
            label: `Block @${target.username}`,
            onSelect: () => setBlocking(true),
            destructive: true,
          },
        ]}
      />
      <BlockUserDialog user={target} open={blocking} onOpenChange={setBlocking} />
    </div>
  );
}
