import { useState } from 'react';
import { cn } from '../../../lib/cn';
import { useBonusHistory } from './friends-queries';

const when = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/**
 * Why points were added or withheld: the player's last bonuses (check-ins and referrals), read
 * when the list is opened.
 */
export function BonusHistoryList({ userId }: { userId: string }) {
  const [open, setOpen] = useState(false);
  const history = useBonusHistory(userId, open);
  return (
    <details className="text-xs text-slate-300" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer font-semibold text-slate-200">Bonus history</summary>
      {history.data && history.data.length === 0 && (
        <p className="mt-2">No bonuses yet: claim your daily check-in, or invite a friend.</p>
      )}
      <ul className="mt-2 flex flex-col gap-1" data-testid="bonus-history">
        {history.data?.map((entry, index) => (
          <li key={`${entry.at}-${index}`} className="flex justify-between gap-2">
            <span className="min-w-0">
              {when.format(Date.parse(entry.at))} · {entry.reason}
            </span>
            <span
              className={cn(
                'shrink-0 font-semibold tabular-nums',
                entry.state === 'added' ? 'text-amber-200' : 'text-slate-400',
              )}
            >
              {entry.state === 'added'
                ? `+${entry.points.toLocaleString()}`
                : entry.state === 'waiting'
                  ? 'waiting'
                  : 'cancelled'}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
