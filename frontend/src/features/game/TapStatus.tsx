import { CloudOff, CheckCircle2, RefreshCw } from 'lucide-react';
import type { SyncState } from './tap-status';

const plural = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'tap' : 'taps'}`;

/** A time of today as its hour and minute; of another day, with the day. */
function whenText(at: Date, now = new Date()): string {
  const sameDay = at.toDateString() === now.toDateString();
  return at.toLocaleString(undefined, {
    ...(sameDay ? {} : { day: 'numeric', month: 'short' }),
    hour: '2-digit',
    minute: '2-digit',
  });
}

/**
 * Where the player's taps stand, in one calm line instead of an error per tap: offline with the
 * taps waiting on the device (and, when known, as of when the figures on screen are), sending
 * them once back, then synced. Nothing while all is live.
 */
export function TapStatus({
  state,
  waiting,
  asOf = null,
}: {
  state: SyncState;
  waiting: number;
  /** When the server answered the figures on screen (ms since the epoch): said while offline. */
  asOf?: number | null;
}) {
  if (state === 'live') return <p role="status" className="sr-only" data-testid="tap-status" />;
  const look = {
    offline: {
      icon: CloudOff,
      text:
        waiting === 0
          ? 'Offline: your taps will wait on this device'
          : `Offline: ${plural(waiting)} waiting, kept on this device`,
      className: 'bg-amber-950/90 text-amber-50 ring-amber-300/40',
    },
    sending: {
      icon: RefreshCw,
      text: `Back online: sending ${plural(waiting)}…`,
      className: 'bg-slate-800/90 text-slate-100 ring-white/15',
    },
    synced: {
      icon: CheckCircle2,
      text: 'Synced: every tap is counted',
      className: 'bg-emerald-950/90 text-emerald-50 ring-emerald-300/40',
    },
  }[state];
  const Icon = look.icon;
  return (
    <p
      role="status"
      data-testid="tap-status"
      data-state={state}
      data-waiting={waiting}
      className={`flex items-center justify-center gap-2 rounded-xl px-3 py-2 text-center text-sm font-semibold ring-1 ${look.className}`}
    >
      <Icon className="h-4 w-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0">
        {look.text}
        {state === 'offline' && asOf !== null && (
          <span data-testid="figures-as-of" className="block text-xs font-normal opacity-85">
            Figures as of{' '}
            <time dateTime={new Date(asOf).toISOString()}>{whenText(new Date(asOf))}</time>
          </span>
        )}
      </span>
    </p>
  );
}
