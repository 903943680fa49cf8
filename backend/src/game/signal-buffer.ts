import type { Logger } from '../core/logger';
import type { DaySignals, SignalsRepository } from './signals-repository';

const DAY_MS = 86_400_000;

/** A running mean and sum of squared deviations (Welford), mergeable with another (Chan et al.). */
interface Moments {
  n: number;
  mean: number;
  m2: number;
}

/** What a player's day gained since the last write, and where their streak stands. */
interface Pending {
  userId: string;
  day: number;
  taps: number;
  refused: number;
  sizes: Moments;
  gaps: Moments;
  activeMs: number;
}

/** A refused batch that may yet be sent again and counted. */
interface Held {
  userId: string;
  count: number;
  atMs: number;
}

/** Refused batches kept back per player at most; more are recorded at once. */
const MAX_HELD_PER_PLAYER = 64;

interface Streak {
  day: number;
  startMs: number;
  lastMs: number;
  longestMs: number;
}

const none = (): Moments => ({ n: 0, mean: 0, m2: 0 });

function add(moments: Moments, x: number): void {
  moments.n += 1;
  const d = x - moments.mean;
  moments.mean += d / moments.n;
  moments.m2 += d * (x - moments.mean);
}

/**
 * The suspicion signals, kept by each server process between writes: the tap path only adds to a
 * few numbers in memory, and every `intervalMs` one statement merges what each player's day gained
 * into Postgres (counts add up, running moments merge), so that several processes and nodes add to
 * the same rows. The streak of each player (their last batch) stays in the process across writes,
 * so no gap is lost at a write. A player's batches go to the process that holds their socket; one
 * who moves to another process (a reconnection, a restart) starts a new streak there, and the
 * longest streak is the longest of each process's. A crash loses at most the last interval.
 *
 * A refusal by the rate is held back for `refusalHoldMs` before it counts as refused: a client
 * that paces its taps to the allowance (the game screen catching up after an outage, a little
 * off the server's clock) sends a refused batch again, with its number or tap key, once the
 * allowance holds it, and a refused batch counted so, whole, was never too fast. Nothing a client
 * says makes a refusal excusable: only getting the same taps counted within the cap does, which is
 * what a player within the rate does anyway. Refusals of batches without a name, of another
 * size, or sent again to another process are recorded.
 */
export class SignalBuffer {
  private pending = new Map<string, Pending>();
  private readonly streaks = new Map<string, Streak>();
  /** Refused batches by name (see GameService), until counted or `refusalHoldMs` old. */
  private readonly held = new Map<string, Held>();
  private readonly heldPerPlayer = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;

  private readonly repo: SignalsRepository;
  private readonly pauseMs: number;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly refusalHoldMs: number;

  constructor(deps: {
    repo: SignalsRepository;
    /** A pause this long or longer ends a streak of tapping. */
    pauseMs: number;
    logger: Logger;
    /** The clock batches are timed by (epoch ms); tests set it. */
    now?: () => number;
    /** How long a refused batch waits to be sent again and counted before it is recorded. */
    refusalHoldMs?: number;
  }) {
    this.repo = deps.repo;
    this.pauseMs = deps.pauseMs;
    this.logger = deps.logger;
    this.now = deps.now ?? Date.now;
    this.refusalHoldMs = deps.refusalHoldMs ?? 60_000;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.write().catch((err: unknown) => this.logger.error({ err }, 'game signals write failed'));
    }, intervalMs).unref();
  }

  /** A counted batch of `count` taps, now; `batch` names it (its number or tap key). */
  counted(userId: string, count: number, batch?: string): void {
    const now = this.now();
    if (batch !== undefined) this.release(batch, count);
    const day = Math.floor(now / DAY_MS);
    const entry = this.entry(userId, day);
    entry.taps += count;
    add(entry.sizes, count);
    let streak = this.streaks.get(userId);
    if (streak && streak.day === day && now - streak.lastMs <= this.pauseMs) {
      const gap = Math.max(0, now - streak.lastMs);
      entry.activeMs += gap;
      add(entry.gaps, gap);
      streak.longestMs = Math.max(streak.longestMs, now - streak.startMs);
      streak.lastMs = Math.max(streak.lastMs, now);
    } else {
      const longestMs = streak?.day === day ? streak.longestMs : 0;
      streak = { day, startMs: now, lastMs: now, longestMs };
      this.streaks.set(userId, streak);
    }
  }

  /**
   * A batch of `count` taps the rate cap refused, now. A named batch is held back (refused again,
   * it stays held once); it counts as refused unless it is counted, whole, within the hold.
   */
  refused(userId: string, count: number, batch?: string): void {
    const atMs = this.now();
    if (batch !== undefined && this.held.has(batch)) return;
    const holding = this.heldPerPlayer.get(userId) ?? 0;
    if (batch === undefined || holding >= MAX_HELD_PER_PLAYER) {
      this.record({ userId, count, atMs });
      return;
    }
    this.held.set(batch, { userId, count, atMs });
    this.heldPerPlayer.set(userId, holding + 1);
  }

  /** Merges what was gained since the last write into Postgres; kept for the next one on failure. */
  write(): Promise<void> {
    this.recordHeld(this.now() - this.refusalHoldMs);
    this.writing ??= this.writeOnce().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.writing?.catch(() => undefined);
    this.recordHeld(Infinity);
    await this.write();
  }

  /** A held refusal of `batch` is settled by its count: dropped when whole, recorded otherwise. */
  private release(batch: string, count: number): void {
    const held = this.unhold(batch);
    if (held && held.count !== count) this.record(held);
  }

  /** Records the held refusals made up to `beforeMs`. */
  private recordHeld(beforeMs: number): void {
    for (const [batch, held] of this.held) {
      if (held.atMs <= beforeMs) this.record(this.unhold(batch)!);
    }
  }

  private unhold(batch: string): Held | undefined {
    const held = this.held.get(batch);
    if (!held) return undefined;
    this.held.delete(batch);
    const holding = (this.heldPerPlayer.get(held.userId) ?? 1) - 1;
    if (holding > 0) this.heldPerPlayer.set(held.userId, holding);
    else this.heldPerPlayer.delete(held.userId);
    return held;
  }

  private record({ userId, count, atMs }: Held): void {
    this.entry(userId, Math.floor(atMs / DAY_MS)).refused += count;
  }

  private async writeOnce(): Promise<void> {
    if (this.pending.size === 0) return;
    const taken = this.pending;
    this.pending = new Map();
    const rows: DaySignals[] = [...taken.values()].map((entry) => {
      const streak = this.streaks.get(entry.userId);
      const today = streak?.day === entry.day ? streak : undefined;
      return {
        userId: entry.userId,
        day: entry.day,
        taps: entry.taps,
        refused: entry.refused,
        batches: entry.sizes.n,
        sizeMean: entry.sizes.mean,
        sizeM2: entry.sizes.m2,
        gapN: entry.gaps.n,
        gapMean: entry.gaps.mean,
        gapM2: entry.gaps.m2,
        activeMs: entry.activeMs,
        longestMs: today?.longestMs ?? 0,
        streakStartMs: today?.startMs ?? null,
        lastMs: today?.lastMs ?? null,
      };
    });
    try {
      await this.repo.mergeSignals(rows);
    } catch (error) {
      for (const entry of taken.values()) this.putBack(entry);
      throw error;
    }
    // Streaks of past days are done with.
    const day = Math.max(...rows.map((row) => row.day));
    for (const [userId, streak] of this.streaks) if (streak.day < day) this.streaks.delete(userId);
  }

  private entry(userId: string, day: number): Pending {
    const key = `${userId}:${day}`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { userId, day, taps: 0, refused: 0, sizes: none(), gaps: none(), activeMs: 0 };
      this.pending.set(key, entry);
    }
    return entry;
  }

  /** Merges a failed write's gains into what came since. */
  private putBack(old: Pending): void {
    const entry = this.entry(old.userId, old.day);
    entry.taps += old.taps;
    entry.refused += old.refused;
    entry.activeMs += old.activeMs;
    entry.sizes = merge(old.sizes, entry.sizes);
    entry.gaps = merge(old.gaps, entry.gaps);
  }
}

/** Two sets of moments as one (the parallel form of Welford's method). */
export function merge(a: Moments, b: Moments): Moments {
  const n = a.n + b.n;
  if (n === 0) return none();
  const delta = b.mean - a.mean;
  return {
    n,
    mean: a.mean + (delta * b.n) / n,
    m2: a.m2 + b.m2 + (delta * delta * a.n * b.n) / n,
  };
}
