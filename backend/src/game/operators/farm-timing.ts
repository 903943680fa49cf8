import {
  REFERRAL_FARM_SAME_CADENCE,
  REFERRAL_FARM_SAME_SECONDS,
  REFERRAL_FARM_TIMING_INVITEES,
  type InviteeTiming,
  type SharedTiming,
} from '@tapgram/shared';
import { when } from './suspicion';

/** An invited player's day of signals (game_player_days), as the timing rule reads it. */
export interface InviteeDay {
  id: string;
  username: string;
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  batches: number;
  gapN: number;
  gapMean: number;
  gapM2: number;
  streakStartMs: number | null;
  lastMs: number | null;
}

/** The suspicion settings the rule shares with the cadence rule. */
export interface TimingRules {
  /** Batches (intervals) a day needs before its rhythm is judged (SUSPICION_MIN_BATCHES). */
  minBatches: number;
  /** A rhythm whose intervals vary less than this is machine-like (SUSPICION_EVEN_CADENCE). */
  evenCadence: number;
}

/** Invitees shown per group at most; the reason counts them all. */
const SHOWN = 50;
const SAME_MS = REFERRAL_FARM_SAME_SECONDS * 1000;

/**
 * Invited players of one inviter whose tapping shares a script's timing, from the signals the
 * server already keeps per player and day (no per-tap data): groups of REFERRAL_FARM_TIMING_INVITEES
 * or more who tapped to the same even rhythm (each one's intervals varying less than the cadence
 * rule allows, their mean intervals within REFERRAL_FARM_SAME_CADENCE of each other, whatever the
 * day), or who started and stopped tapping within the same REFERRAL_FARM_SAME_SECONDS on one day.
 * People differ in rhythm from one another and from one minute to the next, and rarely start and
 * stop together; a script driving several accounts does both.
 */
export function sharedTimings(days: InviteeDay[], rules: TimingRules): SharedTiming[] {
  const judged = days.filter((d) => d.batches >= rules.minBatches).map(timingOf);
  return [
    ...groups(evenest(judged, rules), 'rhythm', rhythmGroup),
    ...[...byDay(judged).values()].flatMap((day) => groups(day, 'together', togetherGroup)),
  ];
}

/** The words an operator reads for a group, `today` being 'YYYY-MM-DD'. */
export function sharedTimingReason(group: SharedTiming, today: string): string {
  const n = group.count.toLocaleString('en-US');
  if (group.kind === 'together') {
    return (
      `${n} invited players started and stopped tapping within the same ` +
      `${REFERRAL_FARM_SAME_SECONDS} seconds ${when(group.invitees[0].day, today)}, as one script would`
    );
  }
  const intervals = group.invitees.map((i) => i.intervalMs);
  const [lo, hi] = [Math.min(...intervals), Math.max(...intervals)];
  const every = seconds(lo) === seconds(hi) ? seconds(lo) : `${seconds(lo)}–${seconds(hi)}`;
  const varying = Math.max(...group.invitees.map((i) => i.intervalVariation));
  return (
    `${n} invited players tapped to the same machine-like rhythm: a batch every ${every} s, ` +
    `the intervals varying at most ${(varying * 100).toFixed(1)}% (people vary far more)`
  );
}

function timingOf(
  d: InviteeDay,
): InviteeTiming & { startMs: number | null; stopMs: number | null } {
  const variation = d.gapMean > 0 ? Math.sqrt(Math.max(d.gapM2, 0) / d.gapN) / d.gapMean : 0;
  return {
    id: d.id,
    username: d.username,
    day: d.day,
    batches: d.batches,
    intervalMs: d.gapMean,
    intervalVariation: d.gapN > 0 ? variation : Infinity,
    startedAt: d.streakStartMs === null ? null : new Date(d.streakStartMs).toISOString(),
    stoppedAt: d.lastMs === null ? null : new Date(d.lastMs).toISOString(),
    startMs: d.streakStartMs,
    stopMs: d.lastMs,
  };
}

type Timing = ReturnType<typeof timingOf>;

/** Each invitee's evenest machine-like day. */
function evenest(timings: Timing[], rules: TimingRules): Timing[] {
  const best = new Map<string, Timing>();
  for (const t of timings) {
    if (!(t.intervalVariation < rules.evenCadence)) continue;
    const held = best.get(t.id);
    if (!held || t.intervalVariation < held.intervalVariation) best.set(t.id, t);
  }
  return [...best.values()];
}

function byDay(timings: Timing[]): Map<string, Timing[]> {
  const days = new Map<string, Timing[]>();
  for (const t of timings) days.set(t.day, [...(days.get(t.day) ?? []), t]);
  return days;
}

/** The largest groups, one after another, while they are large enough. */
function groups(
  timings: Timing[],
  kind: SharedTiming['kind'],
  largest: (timings: Timing[]) => Timing[],
): SharedTiming[] {
  const found: SharedTiming[] = [];
  let left = timings;
  for (;;) {
    const group = largest(left);
    if (group.length < REFERRAL_FARM_TIMING_INVITEES) return found;
    const taken = new Set(group);
    left = left.filter((t) => !taken.has(t));
    const invitees = group
      .map(({ startMs: _start, stopMs: _stop, ...shown }) => shown)
      .sort((a, b) => a.username.localeCompare(b.username));
    found.push({ kind, invitees: invitees.slice(0, SHOWN), count: invitees.length });
  }
}

/** The most invitees whose mean intervals lie within REFERRAL_FARM_SAME_CADENCE of each other. */
function rhythmGroup(timings: Timing[]): Timing[] {
  const sorted = [...timings].sort((a, b) => a.intervalMs - b.intervalMs);
  let best: Timing[] = [];
  for (let i = 0, j = 0; j < sorted.length; j += 1) {
    const hi = sorted[j].intervalMs;
    while (hi - sorted[i].intervalMs > REFERRAL_FARM_SAME_CADENCE * hi) i += 1;
    if (j - i + 1 > best.length) best = sorted.slice(i, j + 1);
  }
  return best;
}

/** The most invitees of one day who started within the same seconds and stopped so too. */
function togetherGroup(timings: Timing[]): Timing[] {
  const known = timings
    .filter((t) => t.startMs !== null && t.stopMs !== null)
    .sort((a, b) => a.startMs! - b.startMs!);
  let best: Timing[] = [];
  for (const [i, first] of known.entries()) {
    const started = known.slice(i).filter((t) => t.startMs! - first.startMs! <= SAME_MS);
    if (started.length <= best.length) continue;
    const stops = started.sort((a, b) => a.stopMs! - b.stopMs!);
    for (let lo = 0, hi = 0; hi < stops.length; hi += 1) {
      while (stops[hi].stopMs! - stops[lo].stopMs! > SAME_MS) lo += 1;
      if (hi - lo + 1 > best.length) best = stops.slice(lo, hi + 1);
    }
  }
  return best;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}
