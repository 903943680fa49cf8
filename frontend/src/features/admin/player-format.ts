import type { PlayerAction } from '@tapgram/shared';

/** How the game operators' screens write figures, days and durations (in English, as elsewhere). */

export const count = (n: number): string => n.toLocaleString('en');

const DAY = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A signal day (YYYY-MM-DD, UTC) as "Nov 3". */
export function dayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : DAY.format(date);
}

/** "11 h 40 min", "25 min", "40 s". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes} min`;
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A coefficient of variation: null when the day had too few batches to tell. */
export const variation = (value: number | null): string =>
  value === null ? '–' : value.toFixed(2);

/** A date, in the reader's own words ("Oct 28, 2026"): it wraps at its spaces on a phone. */
export const date = (iso: string): string =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** A moment, in the reader's own time. */
export const when = (iso: string): string => new Date(iso).toLocaleString();

/** "@mod froze @player: reason", on the player's page and in Recent Activity. */
export const ACTION_VERB: Record<PlayerAction['action'], string> = {
  freeze: 'froze',
  unfreeze: 'unfroze',
  'cancel-referral': 'cancelled a referral bonus of',
  // The player's own action: no moderator (the lines say "@player changed their country").
  'change-country': 'changed their country',
  'restore-referral': 'restored a referral bonus of',
};
