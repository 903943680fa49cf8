import type { BlockedUser } from '@tapgram/shared';
import { ShieldOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../hooks/use-toast';
import { useBlockedUsers, useSetBlocked } from './useBlocks';
import { EmptyState } from '../ui/EmptyState';
import { LoadMoreButton } from '../ui/LoadMoreButton';
import { UserAvatar } from '../ui/UserAvatar';

function BlockedRow({ user }: { user: BlockedUser }) {
  const unblock = useSetBlocked(user);
  const press = () =>
    unblock.mutate(false, {
      onSuccess: () =>
        toast({ title: 'Unblocked', description: `@${user.username} is no longer blocked` }),
      onError: () =>
        toast({ title: 'Error', description: 'Failed to unblock', variant: 'destructive' }),
    });
  return (
    <li className="flex items-center gap-3 px-4 py-2">
      <Link
        to={`/lolgram/${encodeURIComponent(user.username)}`}
        className="flex min-w-0 flex-1 items-center gap-3 rounded-xl py-1"
      >
        <UserAvatar
          src={user.avatar}
          srcSet={user.avatarSrcset}
          size={40}
          username={user.username}
          className="h-10 w-10"
        />
        <span className="truncate text-sm font-semibold">{user.username}</span>
      </Link>
      <Button
        variant="secondary"
        className="h-11"
        disabled={unblock.isPending}
        onClick={press}
        aria-label={`Unblock @${user.username}`}
      >
        {unblock.isPending ? 'Unblocking...' : 'Unblock'}
      </Button>
    </li>
  );
}

/** One's own block list, a page at a time, each with its Unblock button. */
export function BlockedList({ viewerId }: { viewerId: string }) {
  const blocked = useBlockedUsers(viewerId);
  if (blocked.isPending) {
    return (
      <p role="status" className="px-4 py-6 text-center text-sm text-slate-400">
        Loading blocked accounts...
      </p>
    );
  }
  if (blocked.isError && blocked.users.length === 0) {
    return (
      <p role="alert" className="px-4 py-6 text-center text-sm text-red-400">
        Failed to fetch blocked accounts
      </p>
    );
  }
  if (blocked.users.length === 0) {
    return (
      <EmptyState icon={ShieldOff} title="No blocked accounts">
        <p className="max-w-xs text-sm text-slate-400">
          Block someone from their profile: they can't follow you or LOL your posts, and they aren't
          told.
        </p>
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col">
      <ul aria-label="Blocked accounts" className="divide-y divide-slate-800">
        {blocked.users.map((user) => (
          <BlockedRow key={user.id} user={user} />
        ))}
      </ul>
      <LoadMoreButton pages={blocked} className="mx-4 my-4" />
    </div>
  );
}
