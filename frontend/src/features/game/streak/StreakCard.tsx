import { Flame } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api';
import { useClaimStreak, useStreak } from './streak-queries';

// Made at its first use, not as the game's chunk loads: the first Intl object loads the browser's
// Unicode data, a long task on a phone before the page hydrates (lib/intl-warm.ts loads it aside).
let shortDate: Intl.DateTimeFormat | undefined;
const formatDay = (day: string) =>
  (shortDate ??= new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  })).format(Date.parse(day));

/**
 * The daily streak: the days in a row, today's taps toward the day's count, and the check-in
 * bonus, claimed by a tap on its button once today counts (the server decides; docs/GAME.md).
 */
export function StreakCard({
  userId,
  totalTaps,
  frozen,
}: {
  userId: string;
  /** The player's counted taps: today's progress follows them. */
  totalTaps: number;
  frozen: boolean;
}) {
  const { streak } = useStreak(userId, totalTaps);
  const claim = useClaimStreak(userId);
  if (!streak) return null;
  const { dailyTaps, claimedToday, bonus, counted, claims, streak: days } = streak;
  const todayTaps = Math.min(streak.todayTaps, dailyTaps);
  const percent = Math.round((todayTaps / dailyTaps) * 100);
  const refused = claim.isError ? errorMessage(claim.error) : '';
  return (
    <section
      aria-labelledby="streak-title"
      data-testid="streak"
      className="flex flex-col gap-3 rounded-2xl bg-slate-900 p-3 ring-1 ring-slate-800"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id="streak-title" className="flex min-w-0 items-center gap-2">
          <Flame className="h-6 w-6 shrink-0 text-orange-400" aria-hidden="true" />
          <span className="flex flex-col leading-tight">
            <span className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
              Daily streak
            </span>
            <span className="text-lg font-black text-amber-200" data-testid="streak-days">
              {days} {days === 1 ? 'day' : 'days'}
            </span>
          </span>
        </h2>
        {claimedToday ? (
          <p
            className="text-right text-sm font-semibold text-emerald-300"
            data-testid="streak-claimed"
          >
            +{bonus.toLocaleString()} claimed today
          </p>
        ) : (
          <Button
            onClick={() => claim.mutate()}
            disabled={!counted || frozen || claim.isPending}
            data-testid="streak-claim"
            className="shrink-0"
          >
            {claim.isPending ? 'Claiming...' : `Claim +${bonus.toLocaleString()}`}
          </Button>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <div className="flex justify-between text-xs text-slate-300">
          <span>Today</span>
          <span className="tabular-nums" data-testid="streak-today">
            {todayTaps.toLocaleString()} / {dailyTaps.toLocaleString()} taps
          </span>
        </div>
        <div
          role="progressbar"
          aria-label="Today's taps toward the streak"
          aria-valuemin={0}
          aria-valuemax={dailyTaps}
          aria-valuenow={todayTaps}
          className="h-2 overflow-hidden rounded-full bg-slate-800"
        >
          <div
            className="h-full rounded-full bg-orange-400 transition-[width]"
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
      <p className="text-xs text-slate-400" role={refused ? 'alert' : undefined}>
        {refused ||
          (claimedToday
            ? 'Come back tomorrow to keep your streak.'
            : counted
              ? 'Today counts: claim your check-in bonus.'
              : `Make ${dailyTaps.toLocaleString()} taps today to keep your streak. One missed day a week is forgiven.`)}
      </p>
      {claims.length > 0 && (
        <details className="text-xs text-slate-300">
          <summary className="cursor-pointer font-semibold text-slate-200">Your bonuses</summary>
          <ul className="mt-2 flex flex-col gap-1" data-testid="streak-history">
            {claims.map((c) => (
              <li key={c.day} className="flex justify-between gap-2">
                <span>
                  {formatDay(c.day)} · {c.streak}-day streak
                </span>
                <span className="font-semibold tabular-nums text-amber-200">
                  +{c.points.toLocaleString()}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
