import type { LolgramUser } from '@tapgram/shared';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../hooks/use-toast';
import { serverError } from '../../../lib/server-error';
import { useSetBlocked } from './useBlocks';

/**
 * Asks before blocking someone, then blocks them: the one block action, for a profile and for
 * anywhere else a user shows (a comment's menu).
 */
export function BlockUserDialog({
  user,
  open,
  onOpenChange,
}: {
  user: Pick<LolgramUser, 'id' | 'username'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const block = useSetBlocked(user);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Block @${user.username}?`}
      description="They won't be able to follow you or LOL your posts, you'll stop following each other, and you won't see each other's posts in your feeds. They won't be told."
      confirmLabel="Block"
      workingLabel="Blocking..."
      failure={(error) => serverError(error, 'Failed to block this account')}
      onConfirm={async () => {
        await block.mutateAsync(true);
        toast({
          title: 'Blocked',
          description: `@${user.username} is blocked. Unblock them from your profile.`,
        });
      }}
    />
  );
}
