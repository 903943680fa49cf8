import type { Invitation, Invitations } from '@tapgram/shared';
import { cn } from '../../../lib/cn';

const STATE_LABEL: Record<Invitation['state'], string> = {
  joined: 'Joined',
  playing: 'Playing',
  waiting: 'Waiting',
  paid: 'Paid',
  cancelled: 'Cancelled',
};

const STATE_STYLE: Record<Invitation['state'], string> = {
  joined: 'bg-slate-700 text-slate-100',
  playing: 'bg-sky-500/20 text-sky-200',
  waiting: 'bg-amber-500/20 text-amber-200',
  paid: 'bg-emerald-500/20 text-emerald-200',
  cancelled: 'bg-red-500/20 text-red-200',
};

/** What an invitation's state means, in a line. */
function detail(invitation: Invitation, rules: Invitations['rules']): string {
  switch (invitation.state) {
    case 'joined':
      return `No taps yet: ${rules.taps.toLocaleString()} taps over ${rules.days} days pay you both`;
    case 'playing':
      return `${Math.min(invitation.taps, rules.taps).toLocaleString()} / ${rules.taps.toLocaleString()} taps, ${Math.min(invitation.days, rules.days)} / ${rules.days} days`;
    case 'paid':
      return `+${rules.bonus.toLocaleString()} points each`;
    default:
      return invitation.reason ?? '';
  }
}

/** Each invitation the player made, with its state: joined, playing (progress), waiting, paid, cancelled. */
export function InvitationsList({ data }: { data: Invitations | undefined }) {
  if (!data || data.invitations.length === 0) return null;
  return (
    <section aria-labelledby="invitations-title" className="flex flex-col gap-2">
      <h3 id="invitations-title" className="text-sm font-bold text-slate-100">
        Your invitations
      </h3>
      <ul className="flex flex-col gap-1" data-testid="invitations">
        {data.invitations.map((invitation) => (
          <li key={invitation.id} className="flex flex-col rounded-lg bg-slate-800/60 px-3 py-2">
            <span className="flex items-center justify-between gap-2">
              <span className="min-w-0 truncate font-semibold">{invitation.invitee.username}</span>
              <span
                className={cn(
                  'shrink-0 rounded-full px-2 py-0.5 text-xs font-bold',
                  STATE_STYLE[invitation.state],
                )}
                data-testid="invitation-state"
              >
                {STATE_LABEL[invitation.state]}
              </span>
            </span>
            <span className="text-xs text-slate-300">{detail(invitation, data.rules)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
