import type { ReactNode } from 'react';
import { boardRanks, type LeaderboardCountry } from '@tapgram/shared';
import { CountryFlag } from '../../components/CountryFlag';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/cn';
import { countryName } from '../../lib/countries';
import { LEADERBOARD_SKELETON_ROWS } from '../../lib/ui-constants';

export interface Row {
  key: string;
  label: ReactNode;
  points: number;
  rank: number;
  highlight?: boolean;
}

/** Ranks the top of a board by the Rank tile's rule. */
export function ranked<T extends { totalPoints: number }>(rows: T[]): (T & { rank: number })[] {
  const ranks = boardRanks(rows.map((row) => row.totalPoints));
  return rows.map((row, index) => ({ ...row, rank: ranks[index] }));
}

export function BoardRow({ row, top }: { row: Row; top: boolean }) {
  return (
    <li
      className={cn(
        'flex items-center gap-3 rounded-xl px-3 py-2',
        top ? 'bg-amber-400/15 ring-1 ring-amber-300/50' : 'bg-slate-800/60',
        row.highlight && 'outline-2 outline-sky-400',
      )}
      aria-current={row.highlight ? 'true' : undefined}
    >
      <span className="min-w-7 text-right font-black tabular-nums text-slate-400">{row.rank}</span>
      <span className="min-w-0 flex-1 truncate font-semibold">{row.label}</span>
      <span className="font-bold tabular-nums text-amber-200">{row.points.toLocaleString()}</span>
    </li>
  );
}

/** A board's rows, five skeleton rows while it loads, or its empty state (title, hint). */
export function Board({
  rows,
  empty,
  label,
}: {
  rows: Row[] | undefined;
  empty: [string, string];
  /** The list's name, where a heading does not give it. */
  label?: string;
}) {
  if (!rows) {
    return (
      <ul aria-busy="true" aria-label="Loading" className="space-y-2">
        {Array.from({ length: LEADERBOARD_SKELETON_ROWS }, (_, i) => (
          <li key={i}>
            <Skeleton className="h-11" data-testid="leaderboard-skeleton" />
          </li>
        ))}
      </ul>
    );
  }
  if (rows.length === 0) {
    return (
      <div className="py-8 text-center">
        <p className="font-semibold">{empty[0]}</p>
        <p className="text-sm text-slate-400">{empty[1]}</p>
      </div>
    );
  }
  return (
    // Focusable: a keyboard scrolls the board's hundred rows too.
    <ol className="max-h-[28rem] space-y-1.5 overflow-y-auto pr-1" tabIndex={0} aria-label={label}>
      {rows.map((row, index) => (
        <BoardRow key={row.key} row={row} top={index === 0} />
      ))}
    </ol>
  );
}

/** The countries' board (all time or a season's): each with its flag and name, ranked by points. */
export function CountryBoard({ countries }: { countries: LeaderboardCountry[] | undefined }) {
  return (
    <Board
      empty={['No countries yet!', 'Start tapping to represent your country!']}
      rows={
        countries &&
        ranked(countries).map((c) => ({
          key: c.country,
          label: (
            <>
              <CountryFlag code={c.country} /> {countryName(c.country)}
            </>
          ),
          points: c.totalPoints,
          rank: c.rank,
        }))
      }
    />
  );
}
