import type { Suspicion } from '@tapgram/shared';
import { Snowflake } from 'lucide-react';
import { cn } from '../../lib/cn';

export function FrozenBadge({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full bg-sky-900/80 px-2 py-0.5 text-xs font-bold text-sky-100 ring-1 ring-sky-300/50',
        className,
      )}
    >
      <Snowflake className="h-3 w-3" aria-hidden="true" />
      Frozen
    </span>
  );
}

/** Where a score starts to look like a script, and where it is almost surely one. */
const WATCH_FROM = 30;
const LIKELY_FROM = 70;

function scoreTone(score: number): string {
  if (score >= LIKELY_FROM) return 'bg-red-500/20 text-red-200 ring-red-400/50';
  if (score >= WATCH_FROM) return 'bg-amber-500/15 text-amber-200 ring-amber-300/50';
  return 'bg-slate-800 text-slate-300 ring-slate-600';
}

/** The score, said in words as well as in colour. */
export function SuspicionScore({ score }: { score: number }) {
  return (
    <span
      className={cn(
        'inline-flex min-w-10 justify-center rounded-full px-2 py-0.5 text-sm font-black tabular-nums ring-1',
        scoreTone(score),
      )}
      title={`Suspicion ${score} of 100`}
    >
      <span className="sr-only">Suspicion </span>
      {score}
      <span className="sr-only"> of 100</span>
    </span>
  );
}

export function SuspicionReasons({ suspicion }: { suspicion: Suspicion }) {
  if (suspicion.reasons.length === 0) {
    return <p className="text-sm text-slate-400">Nothing unusual seen.</p>;
  }
  return (
    <ul className="list-disc space-y-0.5 pl-5 text-sm text-slate-300 marker:text-slate-500">
      {suspicion.reasons.map((reason) => (
        <li key={reason}>{reason}</li>
      ))}
    </ul>
  );
}
