import type { Comment } from '@tapgram/shared';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../hooks/use-toast';
import { serverError } from '../../../lib/server-error';
import { cn } from '../../../lib/cn';
import { useAuth } from '../../auth';
import { BlockUserDialog } from '../relations';
import { PostOptionsMenu, type PostMenuItem } from '../ui/PostOptionsMenu';
import { ReportDialog } from '../reports';
import { UserAvatar } from '../ui/UserAvatar';
import { useDeleteComment } from './useComments';
import { formatPostDate } from '../lib/format';

type Open = 'delete' | 'report' | 'block' | null;

/**
 * One comment or reply: who wrote it and what, a Reply button, and its menu (delete for its author
 * and the post's, report and block its author for anyone else signed in).
 */
export function CommentRow({
  comment,
  postId,
  postAuthorId,
  onReply,
  canReply,
}: {
  comment: Comment;
  postId: string;
  postAuthorId: string;
  onReply: (comment: Comment) => void;
  canReply: boolean;
}) {
  const { state } = useAuth();
  const remove = useDeleteComment(postId);
  const [open, setOpen] = useState<Open>(null);
  const dialog = (which: Exclude<Open, null>) => ({
    open: open === which,
    onOpenChange: (next: boolean) => setOpen(next ? which : null),
  });
  const isReply = comment.parentId !== null;
  const className = cn('flex gap-3 py-2', isReply && 'ml-11');

  if (comment.deleted || !comment.userId || !comment.username) {
    return (
      <li className={className} data-testid="comment">
        <p className="py-1 text-sm text-slate-400 italic">
          {comment.blockedAuthor
            ? 'Hidden: a comment by an account you blocked'
            : 'This comment was deleted'}
        </p>
      </li>
    );
  }

  const viewerId = state.user?.id;
  const own = viewerId === comment.userId;
  const items: PostMenuItem[] = [];
  if (viewerId && (own || viewerId === postAuthorId)) {
    items.push({ label: 'Delete', onSelect: () => setOpen('delete'), destructive: true });
  }
  if (viewerId && !own && !comment.moderation) {
    items.push({ label: 'Report', onSelect: () => setOpen('report') });
    items.push({ label: `Block @${comment.username}`, onSelect: () => setOpen('block') });
  }
  const profile = `/lolgram/${encodeURIComponent(comment.username)}`;

  return (
    <li className={className} data-testid="comment">
      <Link to={profile} className="shrink-0 pt-1" tabIndex={-1} aria-hidden="true">
        <UserAvatar
          src={comment.userAvatar}
          size={32}
          username={comment.username}
          className="h-8 w-8"
        />
      </Link>
      <div className="min-w-0 flex-1">
        <p className="text-sm wrap-anywhere">
          <Link to={profile} className="mr-1.5 font-semibold">
            {comment.username}
          </Link>
          {comment.text}
        </p>
        <div className="flex items-center gap-3 text-xs text-slate-400">
          <time dateTime={comment.createdAt}>{formatPostDate(comment.createdAt)}</time>
          {comment.moderation === 'checking' && <span role="status">Checking…</span>}
          {comment.moderation === 'held' && (
            <span className="text-amber-200">Waiting for a moderator</span>
          )}
          {canReply && !comment.moderation && (
            <button
              type="button"
              onClick={() => onReply(comment)}
              className="min-h-11 min-w-11 font-semibold text-slate-300 hover:text-white"
              aria-label={`Reply to ${comment.username}`}
            >
              Reply
            </button>
          )}
        </div>
      </div>
      {items.length > 0 && (
        <PostOptionsMenu items={items} label={`Options for the comment by ${comment.username}`} />
      )}
      <ConfirmDialog
        {...dialog('delete')}
        title="Delete this comment?"
        description={
          isReply
            ? 'It is removed for good.'
            : 'It is removed for good; replies to it stay under a "deleted" comment.'
        }
        confirmLabel="Delete"
        workingLabel="Deleting..."
        failure={(error) => serverError(error, 'Failed to delete the comment')}
        onConfirm={async () => {
          await remove.mutateAsync(comment.id);
          toast({ title: 'Comment deleted' });
        }}
      />
      <ReportDialog commentId={comment.id} {...dialog('report')} />
      <BlockUserDialog
        user={{ id: comment.userId, username: comment.username }}
        {...dialog('block')}
      />
    </li>
  );
}
