import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';

export interface BoardRow {
  key: string;
  label: string;
  icon?: ReactNode;
  points: number;
  /** The Rank tile's rank, where equal points share one; the row's place when not given. */
  rank?: number;
}

const SLOTS = 10;
/** How long a row that moved up or gained points stays highlighted. */
export const CHANGE_HIGHLIGHT_MS = 1200;

type Change = 'up' | 'points';

/**
 * Remembers which rows moved up or gained points since the last change, for a short highlight.
 * The reset timer lives in a ref: a render that changes nothing must not cancel it.
 */
function useChanges(rows: BoardRow[]) {
  const previous = useRef(new Map<string, { index: number; points: number }>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [changed, setChanged] = useState<Map<string, Change>>(new Map());
  useEffect(() => {
    const next = new Map<string, Change>();
    rows.forEach((row, index) => {
      const before = previous.current.get(row.key);
      if (before && index < before.index) next.set(row.key, 'up');
      else if (before && row.points !== before.points) next.set(row.key, 'points');
    });
    previous.current = new Map(rows.map((row, index) => [row.key, { index, points: row.points }]));
    if (next.size === 0) return;
    setChanged(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setChanged(new Map()), CHANGE_HIGHLIGHT_MS);
  }, [rows]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return changed;
}

/**
 * A top-10 board for a big screen: each row holds a slot and slides to its new one when the
 * order changes, so a climb is seen, not just read.
 */
export function LiveBoard({
  title,
  rows,
  empty,
}: {
  title: string;
  rows: BoardRow[] | undefined;
  empty: string;
}) {
  const top = useMemo(() => (rows ?? []).slice(0, SLOTS), [rows]);
  const changed = useChanges(top);
  return (
    <section className="flex flex-col rounded-3xl bg-white/5 p-2 ring-1 ring-white/10 sm:p-3 lg:min-h-0 lg:flex-1 lg:p-[2vh]">
      <h2 className="mb-2 px-1 text-2xl font-black tracking-tight text-amber-300 lg:mb-[1.5vh] lg:px-0 lg:text-[4.5vh]">
        {title}
      </h2>
      <ol
        className="relative h-[calc(var(--slots)*3rem)] lg:h-auto lg:min-h-0 lg:flex-1"
        // While the board loads it holds every slot, so that what is below it does not jump.
        style={{ '--slots': rows ? Math.max(top.length, 1) : SLOTS } as CSSProperties}
        aria-label={title}
        aria-busy={!rows}
      >
        {rows && top.length === 0 && (
          <li className="flex h-full items-center justify-center text-lg text-slate-400 lg:text-[3vh]">
            {empty}
          </li>
        )}
        {top.map((row, index) => {
          const change = changed.get(row.key);
          return (
            <li
              key={row.key}
              data-testid="board-row"
              data-change={change}
              className={`absolute inset-x-0 flex h-12 items-center gap-2 rounded-2xl px-2 transition-all sm:gap-3 sm:px-3 lg:h-[10%] lg:gap-[2vh] lg:px-[2vh] duration-700 ease-out ${
                index === 0 ? 'bg-amber-400/20 ring-2 ring-amber-300/60' : ''
              } ${change === 'up' ? 'bg-emerald-400/25' : ''} ${change === 'points' ? 'bg-sky-400/10' : ''}`}
              style={{ transform: `translateY(${index * 100}%)` }}
            >
              <span className="w-7 shrink-0 text-right text-lg font-black tabular-nums text-slate-300 lg:w-[6vh] lg:text-[3.6vh]">
                {row.rank ?? index + 1}
              </span>
              {row.icon && (
                <span className="flex text-lg lg:text-[3.6vh]" aria-hidden="true">
                  {row.icon}
                </span>
              )}
              <span className="min-w-0 flex-1 truncate text-base font-bold text-white sm:text-lg lg:text-[3.6vh]">
                {row.label}
              </span>
              {change === 'up' && (
                <span
                  role="img"
                  className="text-base text-emerald-300 lg:text-[3vh]"
                  aria-label="moved up"
                >
                  ▲
                </span>
              )}
              <span className="shrink-0 text-lg font-black tabular-nums text-amber-200 lg:text-[3.6vh]">
                {row.points.toLocaleString()}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
