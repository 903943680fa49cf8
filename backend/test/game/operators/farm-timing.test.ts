import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/core/config';
import {
  sharedTimingReason,
  sharedTimings,
  type InviteeDay,
} from '../../../src/game/operators/farm-timing';
import { suspicionRules } from '../../../src/game/operators/suspicion';

const TODAY = '2026-11-23';
const MORNING = Date.parse(`${TODAY}T08:00:00Z`);
const rules = suspicionRules(loadConfig({}));

/** A seeded generator, so that the "human" gaps are the same at every run. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * An invited player's day as game_player_days holds it once the signal buffer has seen batches
 * separated by `gaps` (ms), starting at `startMs`: the intervals' running moments (Welford).
 */
function inviteeDay(
  username: string,
  gaps: number[],
  { startMs = MORNING, day = TODAY }: { startMs?: number; day?: string } = {},
): InviteeDay {
  let mean = 0;
  let m2 = 0;
  gaps.forEach((gap, i) => {
    const d = gap - mean;
    mean += d / (i + 1);
    m2 += d * (gap - mean);
  });
  return {
    id: `id-${username}`,
    username,
    day,
    batches: gaps.length + 1,
    gapN: gaps.length,
    gapMean: mean,
    gapM2: m2,
    streakStartMs: startMs,
    lastMs: startMs + gaps.reduce((sum, gap) => sum + gap, 0),
  };
}

/** A script: one batch every `everyMs`, off by a few milliseconds at most. */
const script = (everyMs: number, seed: number, batches = 200) => {
  const random = seeded(seed);
  return Array.from({ length: batches - 1 }, () => everyMs + Math.round((random() - 0.5) * 6));
};

/** A person: bursts and pauses, from under half a second to several seconds. */
const person = (seed: number, batches = 200) => {
  const random = seeded(seed);
  return Array.from({ length: batches - 1 }, () => Math.round(300 + random() ** 2 * 4000));
};

const names = (groups: { invitees: { username: string }[] }[]) =>
  groups.map((g) => g.invitees.map((i) => i.username));

describe('invitees sharing a scripted timing', () => {
  it('flags invitees who tap to the same machine-like rhythm, and not the people beside them', () => {
    const days = [
      inviteeDay('bot_a', script(1000, 1), { startMs: MORNING }),
      inviteeDay('bot_b', script(1004, 2), { startMs: MORNING + 3_600_000 }),
      inviteeDay('bot_c', script(998, 3), { day: '2026-11-22' }),
      inviteeDay('human_a', person(4)),
      inviteeDay('human_b', person(5), { startMs: MORNING + 60_000 }),
      inviteeDay('human_c', person(6), { startMs: MORNING + 7_200_000 }),
    ];
    const found = sharedTimings(days, rules);
    expect(found.map((g) => [g.kind, g.count])).toEqual([['rhythm', 3]]);
    expect(names(found)).toEqual([['bot_a', 'bot_b', 'bot_c']]);
    const [group] = found;
    for (const invitee of group.invitees) {
      expect(invitee.intervalVariation).toBeLessThan(0.01);
      expect(invitee.batches).toBe(200);
    }
    expect(sharedTimingReason(group, TODAY)).toMatch(
      /^3 invited players tapped to the same machine-like rhythm: a batch every 1\.00 s, the intervals varying at most 0\.\d% \(people vary far more\)$/,
    );
  });

  it('flags no one when only people play, however many', () => {
    const days = Array.from({ length: 12 }, (_, i) =>
      inviteeDay(`human_${i}`, person(10 + i), { startMs: MORNING + i * 97_000 }),
    );
    expect(sharedTimings(days, rules)).toEqual([]);
  });

  it('needs three invitees to share a rhythm: two scripts, or scripts of different rhythms, are not a group', () => {
    expect(
      sharedTimings(
        [inviteeDay('bot_a', script(1000, 1)), inviteeDay('bot_b', script(1000, 2))],
        rules,
      ),
    ).toEqual([]);
    const apart = [
      inviteeDay('bot_a', script(500, 1), { startMs: MORNING }),
      inviteeDay('bot_b', script(1000, 2), { startMs: MORNING + 600_000 }),
      inviteeDay('bot_c', script(2000, 3), { startMs: MORNING + 1_800_000 }),
    ];
    expect(sharedTimings(apart, rules)).toEqual([]);
  });

  it('judges no day of fewer batches than the cadence rule needs', () => {
    const short = rules.minBatches - 1;
    const days = ['bot_a', 'bot_b', 'bot_c'].map((name, i) =>
      inviteeDay(name, script(1000, i, short), { startMs: MORNING + i * 3_600_000 }),
    );
    expect(sharedTimings(days, rules)).toEqual([]);
  });

  it('flags invitees who started and stopped within the same seconds, whatever their rhythm', () => {
    const together = [0, 2_000, 6_000].map((offset, i) => {
      // Each a person's rhythm, but started by one hand and all stopped at once.
      const gaps = person(20 + i, 150);
      const total = gaps.reduce((sum, gap) => sum + gap, 0);
      const end = MORNING + 900_000 + i * 1_500;
      gaps.push(end - (MORNING + offset) - total);
      return inviteeDay(`farm_${i}`, gaps, { startMs: MORNING + offset });
    });
    const late = inviteeDay('human_late', person(30, 150), { startMs: MORNING + 60_000 });
    const found = sharedTimings([...together, late], rules);
    expect(found.map((g) => [g.kind, g.count])).toEqual([['together', 3]]);
    expect(names(found)).toEqual([['farm_0', 'farm_1', 'farm_2']]);
    expect(found[0].invitees[0]).toMatchObject({
      startedAt: `${TODAY}T08:00:00.000Z`,
      stoppedAt: `${TODAY}T08:15:00.000Z`,
    });
    expect(sharedTimingReason(found[0], TODAY)).toBe(
      '3 invited players started and stopped tapping within the same 10 seconds today, as one script would',
    );
    // On different days, the same clock times are not together.
    const spread = together.map((d, i) => ({ ...d, day: `2026-11-2${i}` }));
    expect(sharedTimings(spread, rules)).toEqual([]);
  });
});
