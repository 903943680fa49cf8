import { Bell } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useUnreadCount } from './useNotifications';
import { lazyDialog } from '../../../lib/lazy-page';
import { whenLikelyNeeded } from '../../../lib/when-idle';

/** The list loads when the page is idle, or when the bell is first opened before. */
const NotificationsDialog = lazyDialog(() =>
  import('./NotificationsDialog').then((m) => m.NotificationsDialog),
);

/** The header's bell: the unread count, live, and the notifications list it opens. */
export function NotificationBell() {
  const unread = useUnreadCount(true);
  const [open, setOpen] = useState(false);
  const shown = unread > 99 ? '99+' : String(unread);
  useEffect(() => whenLikelyNeeded(() => void NotificationsDialog.preload()), []);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        data-testid="notification-bell"
        className="relative flex h-11 w-11 items-center justify-center rounded-full text-slate-100 hover:bg-slate-800"
      >
        <Bell className="h-6 w-6" aria-hidden="true" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="unread-badge"
            className="absolute top-1 right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-500 px-1 text-xs leading-none font-bold text-white"
          >
            {shown}
          </span>
        )}
      </button>
      <NotificationsDialog open={open} onOpenChange={setOpen} />
    </>
  );
}
