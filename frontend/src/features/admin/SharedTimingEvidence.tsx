import { REFERRAL_FARM_SAME_SECONDS, type InviteeTiming, type SharedTiming } from '@tapgram/shared';
import { Link } from 'react-router-dom';
import { count, dayLabel } from './player-format';

const TITLE: Record<SharedTiming['kind'], string> = {
  rhythm: 'Same machine-like rhythm',
  together: 'Started and stopped together',
};

const EXPLAINED: Record<SharedTiming['kind'], string> = {
  rhythm:
    'Each tapped at almost exactly the same interval all along, and at the same interval as the ' +
    'others: people speed up, pause, and differ from one another.',
  together:
    `Their last stretch of tapping began within ${REFERRAL_FARM_SAME_SECONDS} seconds of each ` +
    `other and ended within ${REFERRAL_FARM_SAME_SECONDS} seconds too, on the same day.`,
};

/** "08:00:01" (UTC) of an ISO moment. */
const clock = (iso: string | null) => (iso ? iso.slice(11, 19) : '?');

function detail(kind: SharedTiming['kind'], i: InviteeTiming): string {
  const on = `${count(i.batches)} batches on ${dayLabel(i.day)}`;
  if (kind === 'together') return `tapped ${clock(i.startedAt)}–${clock(i.stoppedAt)} UTC, ${on}`;
  const varying = `${(i.intervalVariation * 100).toFixed(1)}%`;
  return `a batch every ${(i.intervalMs / 1000).toFixed(2)} s, varying ${varying}, ${on}`;
}

/**
 * Groups of an inviter's invited players whose tapping shares a script's timing, each explained
 * and each invited player a link to their own page.
 */
export function SharedTimingEvidence({ groups, back }: { groups: SharedTiming[]; back: string }) {
  if (groups.length === 0) return null;
  return (
    <div className="space-y-3" data-testid="shared-timing">
      {groups.map((group, index) => (
        <div key={`${group.kind}-${index}`} className="space-y-1.5">
          <h3 className="text-sm font-bold">
            {TITLE[group.kind]}: {count(group.count)} invited players
          </h3>
          <p className="text-xs text-slate-300">{EXPLAINED[group.kind]}</p>
          <ul className="space-y-1.5 text-sm">
            {group.invitees.map((invitee) => (
              <li key={invitee.id} className="rounded-lg bg-slate-800/60 px-3 py-2">
                <Link
                  to={`/admin/players/${encodeURIComponent(invitee.id)}`}
                  state={{ back }}
                  className="rounded font-bold break-all text-amber-200 underline-offset-4 hover:underline"
                >
                  @{invitee.username}
                </Link>{' '}
                <span className="text-slate-300">{detail(group.kind, invitee)}</span>
              </li>
            ))}
          </ul>
          {group.count > group.invitees.length && (
            <p className="text-xs text-slate-400">
              and {count(group.count - group.invitees.length)} more
            </p>
          )}
        </div>
      ))}
    </div>
  );
}
