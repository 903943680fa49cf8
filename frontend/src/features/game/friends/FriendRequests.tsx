import { usernameError } from '@tapgram/shared';
import { UserPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api';
import { useFriendActions, useFriends } from './friends-queries';

interface Said {
  text: string;
  failed: boolean;
  /** A refusal of the name typed: the field is marked. */
  aboutName?: boolean;
}

/**
 * Adding a friend by username (both must agree: the other accepts), the requests both ways, and
 * the player's friends, each of whom can be removed.
 */
export function FriendRequests({ userId }: { userId: string }) {
  const friends = useFriends(userId);
  const { ask, accept, drop, remove } = useFriendActions(userId);
  const [name, setName] = useState('');
  /** What the latest action came to: each action replaces what an earlier one said. */
  const [said, setSaid] = useState<Said | null>(null);
  const ids = { input: useId(), problem: useId() };
  const nameRefused = said?.failed && said.aboutName;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = usernameError(name.trim());
    if (wrong) {
      setSaid({ text: wrong, failed: true, aboutName: true });
      return;
    }
    setSaid(null);
    ask.mutate(name.trim(), {
      onSuccess: (asked) => {
        setName('');
        setSaid({
          text:
            asked.status === 'friends'
              ? `You and ${asked.friend.username} are friends`
              : `Asked ${asked.friend.username}: they have to accept`,
          failed: false,
        });
      },
      onError: (error) => setSaid({ text: errorMessage(error), failed: true, aboutName: true }),
    });
  };
  /** Accept, decline, cancel or remove: only a refusal has something to say. */
  const act = (action: typeof accept, id: string) => {
    setSaid(null);
    action.mutate(id, {
      onError: (error) => setSaid({ text: errorMessage(error), failed: true }),
    });
  };
  const data = friends.data;

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
          aria-invalid={nameRefused ? true : undefined}
          aria-describedby={nameRefused ? ids.problem : undefined}
          className="min-w-0 flex-1"
        />
        <Button type="submit" disabled={ask.isPending} size="default">
          <UserPlus className="h-4 w-4" aria-hidden="true" /> Ask
        </Button>
      </form>
      <p id={ids.problem} role="status" className="text-xs">
        {said && (
          <span className={said.failed ? 'text-red-300' : 'text-emerald-300'}>{said.text}</span>
        )}
      </p>
      {data && data.incoming.length > 0 && (
        <ul aria-label="Friend requests for you" className="flex flex-col gap-1">
          {data.incoming.map((f) => (
            <li key={f.id} className="flex items-center gap-2 text-sm">
              <span className="min-w-0 flex-1 truncate">{f.username} asks to be friends</span>
              <Button size="sm" onClick={() => act(accept, f.id)}>
                Accept
              </Button>
              <Button size="sm" variant="ghost" onClick={() => act(drop, f.id)}>
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
              <Button size="sm" variant="ghost" onClick={() => act(drop, f.id)}>
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
                  onClick={() => act(remove, f.id)}
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
