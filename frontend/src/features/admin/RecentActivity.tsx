import type { AdminStats, PlayerAction } from '@tapgram/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LoadFailed } from './LoadFailed';
import { usePlayerActions } from './player-queries';
import { ACTION_VERB } from './player-format';

const ROWS = 6;

interface Entry {
  key: string;
  at: string;
  line: ReactNode;
}

function decisionEntry(d: AdminStats['recentDecisions'][number]): Entry {
  return {
    key: `decision-${d.contentId}-${d.decidedAt}`,
    at: d.decidedAt,
    line: (
      <>
        <span className={d.decision === 'approved' ? 'text-emerald-300' : 'text-red-300'}>
          {d.decision}
        </span>{' '}
        {d.contentId.slice(0, 8)} by @{d.moderator}
      </>
    ),
  };
}

function actionEntry(a: PlayerAction): Entry {
  const player = (
    <Link
      to={`/admin/players/${encodeURIComponent(a.playerId)}`}
      className="rounded font-semibold text-amber-200 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-amber-300"
    >
      @{a.player}
    </Link>
  );
  return {
    key: `player-${a.id}`,
    at: a.at,
    // A player's own action (their country) names no moderator.
    line:
      a.moderator === null ? (
        <>
          {player} {ACTION_VERB[a.action]}: {a.reason}
        </>
      ) : (
        <>
          @{a.moderator}{' '}
          <span className={a.action === 'freeze' ? 'text-sky-300' : 'text-emerald-300'}>
            {ACTION_VERB[a.action]}
          </span>{' '}
          {player}: {a.reason}
        </>
      ),
  };
}

/** LOLGram's moderation decisions and the game's freezes and unfreezes, newest first. */
export function RecentActivity({ decisions }: { decisions: AdminStats['recentDecisions'] }) {
  const actions = usePlayerActions();
  const entries = [...decisions.map(decisionEntry), ...(actions.data ?? []).map(actionEntry)]
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, ROWS);
  return (
    <>
      {entries.length === 0 ? (
        !actions.isPending && (
          <p className="mt-2 text-sm text-slate-400">No moderation decisions yet.</p>
        )
      ) : (
        <ul className="mt-2 space-y-1 text-sm wrap-anywhere">
          {entries.map((entry) => (
            <li key={entry.key}>
              {entry.line}{' '}
              <time className="text-slate-400" dateTime={entry.at}>
                {new Date(entry.at).toLocaleString()}
              </time>
            </li>
          ))}
        </ul>
      )}
      {actions.isError && (
        <LoadFailed
          message="Failed to fetch player actions"
          onRetry={() => void actions.refetch()}
        />
      )}
    </>
  );
}
