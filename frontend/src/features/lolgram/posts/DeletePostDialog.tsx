import type { Post } from '@tapgram/shared';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../hooks/use-toast';
import { focusWhenReady } from '../../../lib/focus-when-ready';
import { serverError } from '../../../lib/server-error';
import { FOCUS_TARGETS, postCard } from '../lib/focus-targets';
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
        // What comes next in its list: the post below it, else the one above, else the feed.
        const card = postCard(post.id);
        const neighbour = (card?.nextElementSibling ?? card?.previousElementSibling)?.getAttribute(
          'data-post-id',
        );
        await remove.mutateAsync();
        toast({ title: 'Post deleted' });
        onDeleted?.();
        focusWhenReady(
          () =>
            (neighbour ? postCard(neighbour) : null) ?? document.getElementById(FOCUS_TARGETS.feed),
          card,
        );
      }}
    />
  );
}
