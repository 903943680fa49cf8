import { timeLeft } from '@tapgram/shared';
import { useEffect, useState } from 'react';

/** The time left until `endsAtMs` by the server's clock, as a countdown that ticks each second. */
export function Countdown({
  endsAtMs,
  offsetMs,
  className,
}: {
  endsAtMs: number;
  /** Add it to this device's clock for the server's. */
  offsetMs: number;
  className?: string;
}) {
  const [now, setNow] = useState(() => Date.now() + offsetMs);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() + offsetMs), 1000);
    return () => clearInterval(timer);
  }, [offsetMs]);
  // role="timer": read when asked, not announced every second.
  return (
    <span role="timer" className={className} data-testid="season-countdown">
      <time dateTime={new Date(endsAtMs).toISOString()}>{timeLeft(endsAtMs, now)}</time>
      {endsAtMs > now && ' left'}
    </span>
  );
}
