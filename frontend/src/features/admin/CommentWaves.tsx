import { COMMENT_SIGNAL_DAYS, type CommentSignal } from '@tapgram/shared';
import { Link } from 'react-router-dom';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { useCommentSignals } from './queries';

const HEADING = 'comment-waves-heading';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function SignalRow({ signal }: { signal: CommentSignal }) {
  const { user } = signal;
  return (
    <Card className="flex flex-col gap-1 text-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <Link
          to={`/lolgram/${encodeURIComponent(user.username)}`}
          className="font-semibold break-all text-slate-100 underline-offset-2 hover:underline"
        >
          @{user.username}
        </Link>
        <p className="text-slate-400">
          Joined <time dateTime={user.createdAt}>{new Date(user.createdAt).toLocaleString()}</time>
        </p>
      </div>
      <div className="text-slate-300 sm:text-right">
        <p>
          {plural(signal.waves, 'wave')} · {plural(signal.deletedSoon, 'comment')} deleted within a
          minute · {plural(signal.posts, 'post')}
        </p>
        <p className="text-slate-400">
          Last <time dateTime={signal.lastAt}>{new Date(signal.lastAt).toLocaleString()}</time>
        </p>
      </div>
    </Card>
  );
}

/**
 * The accounts whose comments filled a post's limit (a wave), or that deleted theirs soon after
 * writing them, lately: what operators look at when `tapgram_comments_refused_for_post_total`
 * steps up.
 */
export function CommentWaves() {
  const signals = useCommentSignals();
  return (
    <section aria-labelledby={HEADING} className="space-y-3">
      <div>
        <h2 id={HEADING} className="text-lg font-semibold text-slate-100">
          Comment waves
        </h2>
        <p className="text-sm text-slate-400">
          Accounts whose comments filled a post’s limit, or that deleted theirs soon after writing
          them, in the last {COMMENT_SIGNAL_DAYS} days.
        </p>
      </div>
      {signals.isPending ? (
        <Skeleton className="h-20" />
      ) : signals.isError ? (
        <p className="text-red-400">Failed to fetch comment waves</p>
      ) : signals.data.length === 0 ? (
        <p className="py-6 text-center text-slate-400">
          No comment waves in the last {COMMENT_SIGNAL_DAYS} days.
        </p>
      ) : (
        <ul className="space-y-2" aria-label="Accounts in comment waves">
          {signals.data.map((signal) => (
            <li key={signal.user.id}>
              <SignalRow signal={signal} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
