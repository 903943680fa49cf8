import type { PlayerDay } from '@tapgram/shared';
import { lazy, Suspense } from 'react';
import { Skeleton } from '../../components/ui/skeleton';
import { count, dayLabel, duration, variation } from './player-format';

// The charting library loads with the player page only, never with the dashboard.
const SignalCharts = lazy(() =>
  import('./SignalCharts').then((m) => ({ default: m.SignalCharts })),
);

/**
 * Every figure the charts draw, for screen readers (the charts' text alternative). The wrapper is
 * what is hidden: a table is never narrower than its content, so hidden itself it would widen the
 * page.
 */
function SignalsTable({ days }: { days: PlayerDay[] }) {
  return (
    <div className="sr-only">
      <table>
        <caption>Signals per day, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Taps counted</th>
            <th scope="col">Taps refused</th>
            <th scope="col">Batches</th>
            <th scope="col">Active time</th>
            <th scope="col">Longest run without a pause</th>
            <th scope="col">Batch size variation</th>
            <th scope="col">Interval variation</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{dayLabel(day.day)}</th>
              <td>{count(day.taps)}</td>
              <td>{count(day.refused)}</td>
              <td>{count(day.batches)}</td>
              <td>{duration(day.activeSeconds)}</td>
              <td>{duration(day.longestStreakSeconds)}</td>
              <td>{variation(day.sizeVariation)}</td>
              <td>{variation(day.intervalVariation)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PlayerSignals({ days }: { days: PlayerDay[] }) {
  return (
    <section aria-labelledby="player-signals" className="space-y-3">
      <h2 id="player-signals" className="text-lg font-bold">
        Signals over the last {days.length} days
      </h2>
      <Suspense
        fallback={
          <div className="grid gap-3 md:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2].map((chart) => (
              <Skeleton key={chart} className="h-52" />
            ))}
          </div>
        }
      >
        <SignalCharts days={days} />
      </Suspense>
      <SignalsTable days={days} />
    </section>
  );
}
