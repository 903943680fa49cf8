import { z } from 'zod';
import { gameUserSchema, idSchema } from './game';

/**
 * The daily streak: a UTC day counts when the player makes at least `dailyTaps` taps that day,
 * and a check-in bonus in points can be claimed once a day that counts. The rules below are the
 * whole of it; the server applies them, the screen shows what it answers.
 */
export interface StreakRules {
  /** Taps that make a UTC day count (STREAK_DAILY_TAPS). */
  dailyTaps: number;
  /** Points of the check-in bonus per day of the streak (STREAK_BONUS_BASE). */
  bonusBase: number;
  /** The most points one check-in gives (STREAK_BONUS_CAP). */
  bonusCap: number;
}

export const DEFAULT_STREAK_RULES: StreakRules = { dailyTaps: 100, bonusBase: 10, bonusCap: 100 };

/** One missed day in any seven is forgiven: the streak goes on as if it had counted. */
export const STREAK_FORGIVE_EVERY_DAYS = 7;

const DAY_MS = 86_400_000;

/** The UTC day of an instant, as days since 1970-01-01. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** A UTC day as YYYY-MM-DD. */
export function dayDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export interface StreakState {
  /** Days in the streak, today included once it counts. */
  streak: number;
  /** The last missed day that was forgiven (null: none yet). */
  lastForgiven: number | null;
}

/**
 * The streak on `today`, from the days that counted (any order; days after today are ignored).
 * Each counted day adds one. A missed day (one that did not count, between two that did, or
 * between the last that did and today) is forgiven when no missed day was forgiven in the seven
 * days before it; any other missed day halves the streak (rounded down). So a streak is never
 * wiped at once: a long absence halves it day after day. Today, still under way, is never
 * a missed day.
 */
export function streakOn(countedDays: readonly number[], today: number): StreakState {
  const days = [...new Set(countedDays)].filter((day) => day <= today).sort((a, b) => a - b);
  let streak = 0;
  let lastForgiven: number | null = null;
  const missedFrom = (first: number, last: number) => {
    for (let day = first; day <= last && streak > 0; day += 1) {
      if (lastForgiven === null || day - lastForgiven >= STREAK_FORGIVE_EVERY_DAYS) {
        lastForgiven = day;
      } else {
        streak = Math.floor(streak / 2);
      }
    }
  };
  let previous: number | null = null;
  for (const day of days) {
    if (previous !== null) missedFrom(previous + 1, day - 1);
    streak += 1;
    previous = day;
  }
  if (previous !== null) missedFrom(previous + 1, today - 1);
  return { streak, lastForgiven };
}

/** The check-in bonus of a streak: `bonusBase` points a day of it, at most `bonusCap`. */
export function streakBonus(streak: number, rules: StreakRules): number {
  return Math.max(0, Math.min(rules.bonusCap, rules.bonusBase * streak));
}

export const streakMessages = {
  alreadyClaimed: "Today's bonus is already claimed: come back tomorrow",
  notCounted: (dailyTaps: number) =>
    `Today does not count yet: make ${dailyTaps} taps today to claim the bonus`,
} as const;

/** A check-in bonus a player claimed: its day (YYYY-MM-DD, UTC), the streak then, its points. */
export const streakClaimSchema = z.object({
  day: z.string(),
  streak: z.number().int().positive(),
  points: z.number().int().nonnegative(),
  claimedAt: z.string(),
});
export type StreakClaim = z.infer<typeof streakClaimSchema>;

/**
 * GET /api/users/:id/streak: today (UTC) and the taps made in it, how many make it count, the
 * streak, whether today's bonus is claimed, the bonus a claim gives today (or gave), and the
 * player's last bonuses, newest first.
 */
export const streakSchema = z.object({
  today: z.string(),
  todayTaps: z.number().int().nonnegative(),
  dailyTaps: z.number().int().positive(),
  streak: z.number().int().nonnegative(),
  claimedToday: z.boolean(),
  bonus: z.number().int().nonnegative(),
  bonusCap: z.number().int().nonnegative(),
  claims: streakClaimSchema.array(),
});
export type Streak = z.infer<typeof streakSchema>;

/** POST /api/streak/claim, with the player's cookie. */
export const streakClaimBodySchema = z.object({ userId: idSchema });
export type StreakClaimBody = z.infer<typeof streakClaimBodySchema>;

/** The answer to a claim: the player's new totals and the streak with today claimed. */
export const streakClaimAnswerSchema = z.object({ user: gameUserSchema, streak: streakSchema });
export type StreakClaimAnswer = z.infer<typeof streakClaimAnswerSchema>;

/** How many of a player's last bonuses the streak shows. */
export const STREAK_CLAIMS_SHOWN = 7;
