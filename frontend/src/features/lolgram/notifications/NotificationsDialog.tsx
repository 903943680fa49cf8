import { notificationText, type Notification } from '@tapgram/shared';
import { Bell } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { useMarkRead, useNotificationList } from './useNotifications';
import { formatTimeAgo } from '../lib/format';
import { EmptyState } from '../ui/EmptyState';
import { LoadMoreButton } from '../ui/LoadMoreButton';
import { UserAvatar } from '../ui/UserAvatar';

/** Where a notification leads: the post it is about, or the follower's profile. */
function linkOf(n: Notification): string | null {
  if (n.postId) return `/lolgram/p/${n.postId}`;
  const [actor] = n.actors;
  return actor ? `/lolgram/${encodeURIComponent(actor.username)}` : null;
}

function NotificationRow({
  n,
  fresh,
  onOpen,
}: {
  n: Notification;
  /** Unread when the list opened: it stays marked as new while the list is open. */
  fresh: boolean;
  onOpen: () => void;
}) {
  const [actor] = n.actors;
  const text = notificationText(n);
  const to = linkOf(n);
  const body = (
    <>
      {actor ? (
        <UserAvatar src={actor.avatar} size={40} username={actor.username} className="h-10 w-10" />
      ) : (
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-slate-800 text-amber-300">
          <Bell className="h-5 w-5" aria-hidden="true" />
        </span>
      )}
      <span className="flex min-w-0 flex-1 flex-col text-left">
        <span className={cn('text-sm', fresh ? 'font-semibold text-slate-50' : 'text-slate-300')}>
          {text}
        </span>
        <span className="text-xs text-slate-400">
          <time dateTime={n.updatedAt}>{formatTimeAgo(n.updatedAt)}</time>
          {fresh && <span className="sr-only">, new</span>}
        </span>
      </span>
      {n.postThumbnail && (
        <img
          src={n.postThumbnail}
          alt=""
          width={40}
          height={40}
          className="h-10 w-10 shrink-0 rounded-md object-cover"
        />
      )}
      {fresh && <span aria-hidden="true" className="h-2 w-2 shrink-0 rounded-full bg-amber-300" />}
    </>
  );
  const row = 'flex min-h-14 items-center gap-3 rounded-xl px-2 py-2';
  return (
    <li data-testid="notification" data-new={fresh}>
      {to ? (
        <Link to={to} onClick={onOpen} className={cn(row, 'hover:bg-slate-800')}>
          {body}
        </Link>
      ) : (
        <div className={row}>{body}</div>
      )}
    </li>
  );
}

/**
 * The signed-in user's notifications, the latest first, a page at a time; opening it marks read
 * what it shows (up to its newest, so that one arriving meanwhile stays unread).
 */
export function NotificationsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const list = useNotificationList(open);
  const markRead = useMarkRead();
  const newest = list.notifications[0];
  const newestUnread = newest && list.notifications.some((n) => !n.read) ? newest.cursor : null;
  const { mutate } = markRead;
  // What was unread while the list is open stays marked as new, though it is read now.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const unreadIds = list.notifications.filter((n) => !n.read).map((n) => n.id);
  if (open && unreadIds.some((id) => !fresh.has(id))) setFresh(new Set([...fresh, ...unreadIds]));
  if (!open && fresh.size > 0) setFresh(new Set());
  useEffect(() => {
    if (open && newestUnread) mutate(newestUnread);
  }, [open, newestUnread, mutate]);

  let content;
  if (list.isPending) {
    content = (
      <p role="status" className="py-6 text-center text-sm text-slate-400">
        Loading notifications...
      </p>
    );
  } else if (list.isError && list.notifications.length === 0) {
    content = (
      <div role="alert" className="flex flex-col items-center gap-3 py-6 text-center">
        <p className="text-sm text-red-400">Failed to fetch notifications</p>
        <Button variant="secondary" className="h-11" onClick={() => void list.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (list.notifications.length === 0) {
    content = (
      <EmptyState icon={Bell} title="No notifications yet">
        <p className="max-w-xs text-sm text-slate-400">
          When someone LOLs your posts, follows you or comments, you'll see it here.
        </p>
      </EmptyState>
    );
  } else {
    content = (
      <div className="flex flex-col">
        <ul aria-label="Notifications" className="-mx-2 flex flex-col gap-1">
          {list.notifications.map((n) => (
            <NotificationRow
              key={n.id}
              n={n}
              fresh={fresh.has(n.id)}
              onOpen={() => onOpenChange(false)}
            />
          ))}
        </ul>
        <LoadMoreButton pages={list} className="mt-3" />
      </div>
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85vh] gap-3 p-4 sm:p-6">
        <DialogHeader>
          <DialogTitle>Notifications</DialogTitle>
          <DialogDescription className="sr-only">
            LOLs, follows, comments and news about your posts and reports
          </DialogDescription>
        </DialogHeader>
        {content}
      </DialogContent>
    </Dialog>
  );
}
