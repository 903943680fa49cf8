import type { Suspicion } from '@tapgram/shared';
import type { Config, SuspicionRule } from '../../core/config';

/** The suspicion rules' thresholds and weights, from the SUSPICION_* settings. */
export interface SuspicionRules {
  /** Days of signals looked at, today included. */
  days: number;
  refusedTaps: number;
  streakMs: number;
  evenCadence: number;
  minBatches: number;
  networkPlayers: number;
  weights: Record<SuspicionRule, number>;
}

export function suspicionRules(config: Config): SuspicionRules {
  return {
    days: config.SUSPICION_DAYS,
    refusedTaps: config.SUSPICION_REFUSED_TAPS,
    streakMs: config.SUSPICION_STREAK_MINUTES * 60_000,
    evenCadence: config.SUSPICION_EVEN_CADENCE,
    minBatches: config.SUSPICION_MIN_BATCHES,
    networkPlayers: config.SUSPICION_NETWORK_PLAYERS,
    weights: config.SUSPICION_WEIGHTS,
  };
}

/**
 * What the rules look at for one player over the window: the worst day for each day-rule (with
 * that day, 'YYYY-MM-DD'), and the players created from their network.
 */
export interface PlayerFigures {
  refusedMax: number;
  refusedDay: string | null;
  longestMs: number;
  longestDay: string | null;
  /** The day whose batch sizes and intervals varied least, among days of enough batches. */
  evenDay: string | null;
  evenBatches: number;
  sizeVariation: number | null;
  intervalVariation: number | null;
  networkPlayers: number;
}

/**
 * Which rules fire, as the SQL ordering computes them too (see `scoreSql`): the score is the sum of
 * their weights, at most 100, and each gives a reason a person can check on the player's page.
 */
export function suspicionOf(
  figures: PlayerFigures,
  rules: SuspicionRules,
  today: string,
): Suspicion {
  const fired: { rule: SuspicionRule; reason: string }[] = [];
  if (figures.refusedMax >= rules.refusedTaps) {
    fired.push({
      rule: 'refused',
      reason: `refused ${count(figures.refusedMax)} taps ${when(figures.refusedDay, today)}`,
    });
  }
  if (figures.longestMs >= rules.streakMs) {
    fired.push({
      rule: 'streak',
      reason: `tapped ${duration(figures.longestMs)} without a pause ${when(figures.longestDay, today)}`,
    });
  }
  const evenness = Math.max(figures.sizeVariation ?? Infinity, figures.intervalVariation ?? 0);
  if (figures.evenDay !== null && evenness < rules.evenCadence) {
    fired.push({
      rule: 'cadence',
      reason:
        `tapped at an even cadence ${when(figures.evenDay, today)}: ` +
        `${count(figures.evenBatches)} batches varying ${percent(figures.sizeVariation)} in size ` +
        `and ${percent(figures.intervalVariation)} in interval`,
    });
  }
  if (figures.networkPlayers >= rules.networkPlayers) {
    fired.push({
      rule: 'network',
      reason: `${count(figures.networkPlayers)} players from one network`,
    });
  }
  const counted = fired.filter(({ rule }) => rules.weights[rule] > 0);
  return {
    score: Math.min(
      100,
      counted.reduce((sum, { rule }) => sum + rules.weights[rule], 0),
    ),
    reasons: counted.map(({ reason }) => reason),
  };
}

/**
 * The same score in SQL, for sorting the list, over the columns `refused_max`, `longest_ms`,
 * `size_cv`, `gap_cv` (of the evenest day) and `network_players`, with the rules as parameters
 * from `$first` on (see `scoreParams`).
 */
export function scoreSql(first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `least(100,
    CASE WHEN coalesce(refused_max, 0) >= ${p(0)} THEN ${p(5)} ELSE 0 END +
    CASE WHEN coalesce(longest_ms, 0) >= ${p(1)} THEN ${p(6)} ELSE 0 END +
    CASE WHEN size_cv IS NOT NULL AND greatest(size_cv, coalesce(gap_cv, 0)) < ${p(2)}::float8
         THEN ${p(7)} ELSE 0 END +
    CASE WHEN coalesce(network_players, 0) >= ${p(3)} THEN ${p(8)} ELSE 0 END)`;
}

/** The parameters of `scoreSql`, in its order (the fifth is the window's minimum batches). */
export function scoreParams(rules: SuspicionRules): number[] {
  const { weights } = rules;
  return [
    rules.refusedTaps,
    rules.streakMs,
    rules.evenCadence,
    rules.networkPlayers,
    rules.minBatches,
    weights.refused,
    weights.streak,
    weights.cadence,
    weights.network,
  ];
}

/** 'today', 'yesterday' or 'on 23 Nov', for a day ('YYYY-MM-DD') of a reason. */
export function when(day: string | null, today: string): string {
  if (day === null || day === today) return 'today';
  const yesterday = new Date(`${today}T00:00:00Z`);
  yesterday.setUTCDate(yesterday.getUTCDate() - 1);
  if (day === yesterday.toISOString().slice(0, 10)) return 'yesterday';
  const date = new Date(`${day}T00:00:00Z`);
  return `on ${date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })}`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

function percent(variation: number | null): string {
  return `${((variation ?? 0) * 100).toFixed(1)}%`;
}
