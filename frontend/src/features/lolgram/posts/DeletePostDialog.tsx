import type { Post } from '@tapgram/shared';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../hooks/use-toast';
import { serverError } from '../../../lib/server-error';
import { useDeletePost } from './useOwnPost';

/** Asks the author before a post is deleted for good. */
export function DeletePostDialog({
  post,
  open,
  onOpenChange,
  onDeleted,
}: {
  post: Post;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After the post is gone (its own page leaves it). */
  onDeleted?: () => void;
}) {
  const remove = useDeletePost(post);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete this post?"
      description="It will be removed from LOLGram for everyone, with its LOLs. This can't be undone."
      confirmLabel="Delete"
      workingLabel="Deleting..."
      failure={(error) => serverError(error, 'Failed to delete the post')}
      onConfirm={async () => {
        await remove.mutateAsync();
        toast({ title: 'Post deleted' });
        onDeleted?.();
      }}
    />
  );
}
