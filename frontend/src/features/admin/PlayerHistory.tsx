import type { PlayerAction, PlayerDetail, PlayerSession } from '@tapgram/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { FrozenBadge } from './player-badges';
import { ACTION_VERB, count, when } from './player-format';

const LINK =
  'rounded font-bold text-amber-200 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0 space-y-2">
      <h2 className="text-lg font-bold">{title}</h2>
      {children}
    </section>
  );
}

function Sessions({ sessions }: { sessions: PlayerSession[] }) {
  if (sessions.length === 0) return <p className="text-sm text-slate-400">No sessions yet.</p>;
  return (
    <ul className="space-y-1.5 text-sm">
      {sessions.map((session) => (
        <li key={session.id} className="rounded-lg bg-slate-800/60 px-3 py-2">
          <p>
            <span className="font-semibold tabular-nums">{count(session.sessionTaps)}</span> taps ·{' '}
            <span className="tabular-nums">{count(session.sessionPoints)}</span> points
          </p>
          <p className="text-xs text-slate-400">
            <time dateTime={session.createdAt}>{when(session.createdAt)}</time> to{' '}
            <time dateTime={session.updatedAt}>{when(session.updatedAt)}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}

function Network({ network, back }: { network: PlayerDetail['network']; back: string }) {
  return (
    <>
      <p className="text-sm text-slate-300">
        {network.players === 1
          ? 'The only player created from this network.'
          : `${count(network.players)} players created from this network.`}
      </p>
      {network.others.length > 0 && (
        <ul className="space-y-1.5 text-sm">
          {network.others.map((other) => (
            <li
              key={other.id}
              className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-slate-800/60 px-3 py-2"
            >
              <Link
                to={`/admin/players/${encodeURIComponent(other.id)}`}
                state={{ back }}
                className={`${LINK} break-all`}
              >
                @{other.username}
              </Link>
              {other.frozen && <FrozenBadge />}
              <span className="ml-auto text-slate-400 tabular-nums">
                {count(other.totalPoints)} {other.totalPoints === 1 ? 'point' : 'points'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Actions({ actions }: { actions: PlayerAction[] }) {
  if (actions.length === 0) {
    return <p className="text-sm text-slate-400">Never frozen.</p>;
  }
  return (
    <ol className="space-y-1.5 text-sm">
      {actions.map((action) => (
        <li key={action.id} className="rounded-lg bg-slate-800/60 px-3 py-2 wrap-anywhere">
          {action.moderator === null ? (
            <p>
              This player {ACTION_VERB[action.action]}: {action.reason}
            </p>
          ) : (
            <p>
              <span className="font-semibold">@{action.moderator}</span>{' '}
              <span className={action.action === 'freeze' ? 'text-sky-300' : 'text-emerald-300'}>
                {ACTION_VERB[action.action]}
              </span>{' '}
              this player: {action.reason}
            </p>
          )}
          <time className="text-xs text-slate-400" dateTime={action.at}>
            {when(action.at)}
          </time>
        </li>
      ))}
    </ol>
  );
}

/** The player's sessions, the network's other players, and the audit of freezes. */
export function PlayerHistory({ player, back }: { player: PlayerDetail; back: string }) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Section title="Sessions">
        <Sessions sessions={player.sessions} />
      </Section>
      <Section title="Network">
        <Network network={player.network} back={back} />
      </Section>
      <Section title="Actions">
        <Actions actions={player.actions} />
      </Section>
    </div>
  );
}
