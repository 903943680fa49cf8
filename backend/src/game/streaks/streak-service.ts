import {
  dayDate,
  messages,
  STREAK_CLAIMS_SHOWN,
  streakBonus,
  streakMessages,
  streakOn,
  utcDay,
  type Streak,
  type StreakClaimAnswer,
  type StreakRules,
} from '@tapgram/shared';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors';
import { isId } from '../../core/ids';
import type { GameStore } from '../store';
import type { StreakReads } from './streak-repository';

/**
 * The daily streak and its check-in bonus (docs/GAME.md, Daily streak). The rules are the shared
 * pure functions; this reads the days the player's taps made count, from Postgres and from what
 * the store has not flushed yet, on the store's clock (the one that dates the taps).
 */
/** What the streak asks of the game store. */
export type StreakStore = Pick<
  GameStore,
  'getUser' | 'isFrozen' | 'now' | 'recentDayTaps' | 'claimBonus'
>;

export class StreakService {
  private readonly store: StreakStore;
  private readonly reads: StreakReads;
  private readonly rules: StreakRules;

  constructor(deps: { store: StreakStore; reads: StreakReads; rules: StreakRules }) {
    this.store = deps.store;
    this.reads = deps.reads;
    this.rules = deps.rules;
  }

  async streak(userId: string): Promise<Streak> {
    if (!isId(userId) || !(await this.store.getUser(userId))) {
      throw new NotFoundError(messages.userNotFound);
    }
    return (await this.state(userId)).streak;
  }

  /**
   * Claims today's bonus for the player the request acts as: refused when today does not count
   * yet, when it is claimed already (here or anywhere else), and for a frozen player.
   */
  async claim(player: string | null, userId: string): Promise<StreakClaimAnswer> {
    if (!player) throw new ForbiddenError('This browser has not created this player');
    if (player !== userId) throw new ForbiddenError('This browser plays as another player');
    if (!(await this.store.getUser(userId))) throw new NotFoundError(messages.userNotFound);
    if (await this.store.isFrozen(userId)) throw new ForbiddenError(messages.playerFrozen);
    const { streak, day } = await this.state(userId);
    if (streak.claimedToday) throw new ConflictError(streakMessages.alreadyClaimed);
    if (streak.todayTaps < streak.dailyTaps) {
      throw new ConflictError(streakMessages.notCounted(streak.dailyTaps));
    }
    const outcome = await this.store.claimBonus({
      userId,
      day,
      streak: streak.streak,
      points: streak.bonus,
    });
    switch (outcome.kind) {
      case 'already':
        throw new ConflictError(streakMessages.alreadyClaimed);
      case 'frozen':
        throw new ForbiddenError(messages.playerFrozen);
      case 'missing':
        throw new NotFoundError(messages.userNotFound);
    }
    const claim = {
      day: streak.today,
      streak: streak.streak,
      points: streak.bonus,
      claimedAt: new Date(await this.store.now()).toISOString(),
    };
    return {
      user: outcome.user,
      streak: {
        ...streak,
        claimedToday: true,
        claims: [claim, ...streak.claims].slice(0, STREAK_CLAIMS_SHOWN),
      },
    };
  }

  private async state(userId: string): Promise<{ streak: Streak; day: number }> {
    const today = utcDay(await this.store.now());
    const [stored, recent, claims] = await Promise.all([
      this.reads.days(userId, this.rules.dailyTaps, today - 1),
      this.store.recentDayTaps(userId),
      this.reads.claims(userId, STREAK_CLAIMS_SHOWN),
    ]);
    // Postgres's counts, and the store's where it is ahead of its last flush.
    const taps = new Map<number, number>();
    for (const { day, taps: count } of [...stored, ...recent]) {
      taps.set(day, Math.max(count, taps.get(day) ?? 0));
    }
    const counted = [...taps]
      .filter(([, count]) => count >= this.rules.dailyTaps)
      .map(([day]) => day);
    const { streak } = streakOn(counted, today);
    // The streak once today counts, which a claim today is for.
    const claimable = streakOn([...counted, today], today).streak;
    const claimedToday = claims[0]?.day === dayDate(today);
    return {
      day: today,
      streak: {
        today: dayDate(today),
        todayTaps: taps.get(today) ?? 0,
        dailyTaps: this.rules.dailyTaps,
        streak,
        claimedToday,
        // What today's claim gave, or what it gives once today counts.
        bonus: claimedToday ? claims[0].points : streakBonus(claimable, this.rules),
        bonusCap: this.rules.bonusCap,
        claims,
      },
    };
  }
}
