/**
 * The seasons' calendar, apart from the schemas: the game screen counts down with it and would
 * load zod with them. A season is a period of `lengthMs` from `startMs` (epoch ms, UTC), numbered
 * from 1; the season of a point is the one running when the game store counted it.
 */
export interface SeasonCalendar {
  startMs: number;
  lengthMs: number;
}

/** A week from Monday 1 January 2024, midnight UTC: the calendar unless SEASON_* say otherwise. */
export const DEFAULT_SEASON_CALENDAR: SeasonCalendar = {
  startMs: Date.UTC(2024, 0, 1),
  lengthMs: 7 * 86_400_000,
};

/** The season running at `ms`: 1 from the calendar's start (0 before it, which no season holds). */
export function seasonAt(ms: number, { startMs, lengthMs }: SeasonCalendar): number {
  return Math.max(0, Math.floor((ms - startMs) / lengthMs) + 1);
}

/** When season `season` starts and ends (epoch ms; the end is the next one's start). */
export function seasonBounds(
  season: number,
  { startMs, lengthMs }: SeasonCalendar,
): { startsAt: number; endsAt: number } {
  const startsAt = startMs + (season - 1) * lengthMs;
  return { startsAt, endsAt: startsAt + lengthMs };
}

export function seasonName(season: number): string {
  return `Season ${season}`;
}

/**
 * The time left until `endsAt`, as a countdown reads it: "2d 5h", "5h 12m", "12m 05s", "45s";
 * "Ending…" once it is past.
 */
export function timeLeft(endsAt: number, now: number): string {
  const seconds = Math.floor((endsAt - now) / 1000);
  if (seconds <= 0) return 'Ending…';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${String(rest).padStart(2, '0')}s`;
  return `${rest}s`;
}
