import { streakMessages, type GameUser, type StreakClaim } from '@tapgram/shared';
import { describe, expect, it } from 'vitest';
import type { StreakReads } from '../../../src/game/streaks/streak-repository';
import { StreakService, type StreakStore } from '../../../src/game/streaks/streak-service';
import type { BonusClaim, DayTaps } from '../../../src/game/store';

const DAY_MS = 86_400_000;
const TODAY = 20_000;
const ID = '11111111-1111-4111-8111-111111111111';
const rules = { dailyTaps: 10, bonusBase: 10, bonusCap: 50 };

/**
 * The streak's rules against a store and reads kept in memory: Postgres's daily counts
 * (`stored`), the store's own figures ahead of its flush (`recent`), and the claims.
 */
function makeStreak({
  stored = [] as DayTaps[],
  recent = [] as DayTaps[],
  frozen = false,
  claims = [] as StreakClaim[],
} = {}) {
  const user: GameUser = { id: ID, username: 'p', country: 'GB', totalPoints: 0, totalTaps: 0 };
  const claimed: BonusClaim[] = [];
  const store: StreakStore = {
    getUser: async (id) => (id === ID ? user : null),
    isFrozen: async () => frozen,
    now: async () => TODAY * DAY_MS + 3_600_000,
    recentDayTaps: async () => recent,
    claimBonus: async (claim) => {
      if (claimed.some((c) => c.day === claim.day)) return { kind: 'already' };
      claimed.push(claim);
      user.totalPoints += claim.points;
      return { kind: 'claimed', user: { ...user } };
    },
  };
  const reads: StreakReads = {
    days: async (_id, dailyTaps, since) =>
      stored.filter((d) => d.taps >= dailyTaps || d.day >= since),
    claims: async () => claims,
  };
  return { service: new StreakService({ store, reads, rules }), claimed };
}

const days = (taps: number, ...offsets: number[]) =>
  offsets.map((offset) => ({ day: TODAY + offset, taps }));

describe('the streak service', () => {
  it("takes the store's figure for today where it is ahead of Postgres's", async () => {
    const { service } = makeStreak({
      stored: [...days(10, -2, -1), ...days(4, 0)],
      recent: days(12, 0),
    });
    expect(await service.streak(ID)).toMatchObject({ todayTaps: 12, streak: 3, bonus: 30 });
  });

  it('shows before today counts the bonus a claim gives once it does', async () => {
    const { service } = makeStreak({ stored: days(10, -3, -2, -1) });
    expect(await service.streak(ID)).toMatchObject({ todayTaps: 0, streak: 3, bonus: 40 });
  });

  it('caps the bonus', async () => {
    const { service, claimed } = makeStreak({
      stored: days(10, ...Array.from({ length: 30 }, (_, i) => -30 + i), 0),
    });
    await service.claim(ID, ID);
    expect(claimed).toEqual([{ userId: ID, day: TODAY, streak: 31, points: 50 }]);
  });

  it('claims once a day, with the streak and points of the day', async () => {
    const { service, claimed } = makeStreak({ stored: days(10, -1, 0) });
    const answer = await service.claim(ID, ID);
    expect(answer.user.totalPoints).toBe(20);
    expect(answer.streak).toMatchObject({ claimedToday: true, bonus: 20 });
    expect(answer.streak.claims[0]).toMatchObject({ day: '2024-10-04', streak: 2, points: 20 });
    await expect(service.claim(ID, ID)).rejects.toMatchObject({
      status: 409,
      message: streakMessages.alreadyClaimed,
    });
    expect(claimed).toHaveLength(1);
  });

  it('says a day already claimed before the store is asked', async () => {
    const claims = [{ day: '2024-10-04', streak: 1, points: 10, claimedAt: '' }];
    const { service, claimed } = makeStreak({ stored: days(10, 0), claims });
    await expect(service.claim(ID, ID)).rejects.toMatchObject({ status: 409 });
    expect(claimed).toEqual([]);
  });

  it.each([
    ['today not counted', { stored: days(9, 0) }, null, 409, streakMessages.notCounted(10)],
    ['a frozen player', { stored: days(10, 0), frozen: true }, null, 403, 'This player is frozen'],
    [
      'another browser',
      { stored: days(10, 0) },
      'someone-else',
      403,
      'This browser plays as another player',
    ],
    [
      'no player cookie',
      { stored: days(10, 0) },
      undefined,
      403,
      'This browser has not created this player',
    ],
  ] as const)('refuses %s', async (_name, state, player, status, message) => {
    const { service, claimed } = makeStreak(state);
    await expect(service.claim(player === null ? ID : (player ?? null), ID)).rejects.toMatchObject({
      status,
      message,
    });
    expect(claimed).toEqual([]);
  });
});
