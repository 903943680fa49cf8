import { usernameError } from '@tapgram/shared';
import { UserPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api';
import { useFriendActions, useFriends } from './friends-queries';

/**
 * Adding a friend by username (both must agree: the other accepts), the requests both ways, and
 * the player's friends, each of whom can be removed.
 */
export function FriendRequests({ userId }: { userId: string }) {
  const friends = useFriends(userId);
  const { ask, accept, drop, remove } = useFriendActions(userId);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { input: useId(), problem: useId() };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = usernameError(name.trim());
    if (wrong) {
      setProblem(wrong);
      return;
    }
    setProblem(null);
    ask.mutate(name.trim(), {
      onSuccess: () => setName(''),
      onError: (error) => setProblem(errorMessage(error)),
    });
  };
  const asked = ask.data;
  const data = friends.data;
  const failed = [accept, drop, remove].find((m) => m.isError)?.error;

  return (
    <section aria-labelledby="add-friend-title" className="flex flex-col gap-2">
      <h3 id="add-friend-title" className="text-sm font-bold text-slate-100">
        Add a friend
      </h3>
      <form onSubmit={submit} className="flex gap-2" noValidate>
        <label htmlFor={ids.input} className="sr-only">
          Their username
        </label>
        <Input
          id={ids.input}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Their username"
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? ids.problem : undefined}
          className="min-w-0 flex-1"
        />
        <Button type="submit" disabled={ask.isPending} size="default">
          <UserPlus className="h-4 w-4" aria-hidden="true" /> Ask
        </Button>
      </form>
      <p id={ids.problem} role="status" className="text-xs">
        {problem ? (
          <span className="text-red-300">{problem}</span>
        ) : asked && !ask.isPending ? (
          <span className="text-emerald-300">
            {asked.status === 'friends'
              ? `You and ${asked.friend.username} are friends`
              : `Asked ${asked.friend.username}: they have to accept`}
          </span>
        ) : failed ? (
          <span className="text-red-300">{errorMessage(failed)}</span>
        ) : null}
      </p>
      {data && data.incoming.length > 0 && (
        <ul aria-label="Friend requests for you" className="flex flex-col gap-1">
          {data.incoming.map((f) => (
            <li key={f.id} className="flex items-center gap-2 text-sm">
              <span className="min-w-0 flex-1 truncate">{f.username} asks to be friends</span>
              <Button size="sm" onClick={() => accept.mutate(f.id)}>
                Accept
              </Button>
              <Button size="sm" variant="ghost" onClick={() => drop.mutate(f.id)}>
                Decline
              </Button>
            </li>
          ))}
        </ul>
      )}
      {data && data.outgoing.length > 0 && (
        <ul aria-label="Your friend requests" className="flex flex-col gap-1">
          {data.outgoing.map((f) => (
            <li key={f.id} className="flex items-center gap-2 text-sm text-slate-300">
              <span className="min-w-0 flex-1 truncate">Waiting for {f.username}</span>
              <Button size="sm" variant="ghost" onClick={() => drop.mutate(f.id)}>
                Cancel
              </Button>
            </li>
          ))}
        </ul>
      )}
      {data && data.friends.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer text-xs font-semibold text-slate-200">
            Your friends ({data.friends.length})
          </summary>
          <ul className="mt-2 flex flex-col gap-1" data-testid="friends-list">
            {data.friends.map((f) => (
              <li key={f.id} className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate">{f.username}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => remove.mutate(f.id)}
                  aria-label={`Remove ${f.username}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
