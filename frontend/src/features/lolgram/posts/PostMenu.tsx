import type { Post } from '@tapgram/shared';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '../../../hooks/use-toast';
import { useAuth } from '../../auth';
import { lazyDialog } from '../../../lib/lazy-page';
import { whenLikelyNeeded } from '../../../lib/when-idle';
import { copyPostLink } from './share-post';
import { PostOptionsMenu } from '../ui/PostOptionsMenu';

// Loaded when first opened: every card has a menu, few open it.
const DeletePostDialog = lazyDialog(() =>
  import('./DeletePostDialog').then((m) => m.DeletePostDialog),
);
const EditCaptionDialog = lazyDialog(() =>
  import('./EditCaptionDialog').then((m) => m.EditCaptionDialog),
);
const ReportDialog = lazyDialog(() => import('../reports').then((m) => m.ReportDialog));
/** Asked for once per page, however many cards it shows. */
let preloadAsked = false;
const preloadDialogs = () => {
  if (preloadAsked) return;
  preloadAsked = true;
  whenLikelyNeeded(() =>
    [DeletePostDialog, EditCaptionDialog, ReportDialog].forEach((dialog) => void dialog.preload()),
  );
};

type Open = 'edit' | 'delete' | 'report' | null;

/**
 * A post's options: its author copies its link, edits the caption or deletes it; another
 * signed-in user opens the author's profile or reports it. Visitors get no menu.
 */
export function PostMenu({ post, onDeleted }: { post: Post; onDeleted?: () => void }) {
  const { state } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState<Open>(null);
  const dialog = (which: Exclude<Open, null>) => ({
    open: open === which,
    onOpenChange: (next: boolean) => setOpen(next ? which : null),
  });
  const signedIn = state.isAuthenticated;
  useEffect(() => {
    if (signedIn) preloadDialogs();
  }, [signedIn]);
  if (!signedIn) return null;

  if (state.user?.id === post.userId) {
    const copyLink = async () => {
      toast(
        (await copyPostLink(post.id))
          ? { title: 'Link copied', description: 'Paste it anywhere to share this post' }
          : { title: 'Error', description: 'Could not copy the link', variant: 'destructive' },
      );
    };
    return (
      <>
        <PostOptionsMenu
          items={[
            { label: 'Copy post link', onSelect: () => void copyLink() },
            { label: 'Edit caption', onSelect: () => setOpen('edit') },
            { label: 'Delete', onSelect: () => setOpen('delete'), destructive: true },
          ]}
        />
        <EditCaptionDialog post={post} {...dialog('edit')} />
        <DeletePostDialog post={post} onDeleted={onDeleted} {...dialog('delete')} />
      </>
    );
  }

  return (
    <>
      <PostOptionsMenu
        items={[
          {
            label: 'View profile',
            onSelect: () => navigate(`/lolgram/${encodeURIComponent(post.username)}`),
          },
          { label: 'Report', onSelect: () => setOpen('report') },
        ]}
      />
      <ReportDialog postId={post.id} {...dialog('report')} />
    </>
  );
}
