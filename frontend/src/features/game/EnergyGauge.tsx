import type { TapBucket } from '@tapgram/shared';
import { Zap } from 'lucide-react';
import { useEffect, useState } from 'react';

/** How often the gauge shows the refill while the bucket is not full. */
const REFILL_FRAME_MS = 100;

/**
 * The tap allowance the screen applies, the server's own (TapBucket): a bar of the taps it holds
 * now, refilling as it does; when empty it says so, and taps are not counted until it refills.
 * `spent` changes with every tap, so that the bar follows at once.
 */
export function EnergyGauge({
  bucket,
  spent,
  disabled = false,
}: {
  bucket: TapBucket;
  spent: number;
  disabled?: boolean;
}) {
  const [held, setHeld] = useState(() => bucket.allowance.burst);
  useEffect(() => {
    const read = () => setHeld(bucket.available());
    read();
    if (bucket.full) return;
    const timer = setInterval(() => {
      read();
      if (bucket.full) clearInterval(timer);
    }, REFILL_FRAME_MS);
    return () => clearInterval(timer);
  }, [bucket, spent]);
  const { burst, perSecond } = bucket.allowance;
  const taps = Math.min(burst, Math.floor(held));
  const empty = taps < 1;
  const percent = Math.round((Math.min(burst, held) / burst) * 100);
  return (
    <div
      className="flex items-center gap-3 rounded-xl bg-slate-900 px-3 py-1.5 ring-1 ring-slate-800"
      data-testid="energy-gauge"
      data-empty={empty}
    >
      <span className="flex shrink-0 items-center gap-1 text-xs font-semibold tracking-wide text-slate-300 uppercase">
        <Zap className="h-4 w-4 text-amber-300" aria-hidden="true" />
        Energy
      </span>
      <div
        role="meter"
        aria-label="Tap energy"
        aria-valuemin={0}
        aria-valuemax={burst}
        aria-valuenow={taps}
        aria-valuetext={
          empty
            ? `Empty: taps count again in a moment (${perSecond} a second)`
            : `${taps} of ${burst} taps`
        }
        className="h-3 min-w-0 flex-1 overflow-hidden rounded-full bg-slate-800"
      >
        <div
          className={`h-full rounded-full ${empty ? 'bg-rose-500' : 'bg-amber-400'} ${disabled ? 'opacity-40' : ''}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <span
        className={`w-16 shrink-0 text-right text-sm font-bold tabular-nums ${empty ? 'text-rose-300' : 'text-amber-200'}`}
        aria-hidden="true"
      >
        {empty ? 'Empty' : `${taps}/${burst}`}
      </span>
    </div>
  );
}
