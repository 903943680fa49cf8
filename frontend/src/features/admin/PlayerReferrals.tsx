import { Link } from 'react-router-dom';
import { count } from './player-format';
import { usePlayerReferrals } from './player-queries';
import { SharedTimingEvidence } from './SharedTimingEvidence';

/**
 * The player's invitations as an operator checks them for an invitation farm: how many, their
 * bonuses' states, and the evidence (invited players from one network, paid ones who stopped
 * right after the threshold, invited players sharing a script's timing), each invited player a
 * link to their own page.
 */
export function PlayerReferrals({ id, back }: { id: string; back: string }) {
  const { data } = usePlayerReferrals(id);
  if (!data) return null;
  return (
    <section className="min-w-0 space-y-2" data-testid="player-referrals">
      <h2 className="text-lg font-bold">Invitations</h2>
      <p className="text-sm text-slate-300">
        {data.invited === 0
          ? 'Has invited nobody.'
          : `Invited ${count(data.invited)}: ${count(data.paid)} bonuses paid, ${count(data.cancelled)} cancelled.`}
      </p>
      {data.reasons.length > 0 && (
        <ul className="list-disc space-y-1 pl-5 text-sm text-amber-200">
          {data.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      {data.networks.length > 0 && (
        <p className="text-xs text-slate-400">
          Networks:{' '}
          {data.networks.map((n) => `${n.network}… (${count(n.invitees)} invited)`).join(', ')}
        </p>
      )}
      {data.stopped.length > 0 && (
        <ul className="space-y-1.5 text-sm">
          {data.stopped.map((s) => (
            <li key={s.id} className="rounded-lg bg-slate-800/60 px-3 py-2">
              <Link
                to={`/admin/players/${encodeURIComponent(s.id)}`}
                state={{ back }}
                className="rounded font-bold break-all text-amber-200 underline-offset-4 hover:underline"
              >
                @{s.username}
              </Link>{' '}
              <span className="text-slate-300">
                {count(s.taps)} taps, last on {s.lastDay}
              </span>
            </li>
          ))}
        </ul>
      )}
      <SharedTimingEvidence groups={data.timing} back={back} />
    </section>
  );
}
