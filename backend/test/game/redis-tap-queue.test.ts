import { DEFAULT_SEASON_CALENDAR } from '@tapgram/shared';
import { describe, expect, it } from 'vitest';
import type { Redis } from '../../src/core/redis';
import { gameKeys } from '../../src/game/redis-keys';
import type { TapReply } from '../../src/game/redis-scripts';
import { BATCHES_PER_STEP, RedisTapQueue } from '../../src/game/redis-tap-queue';

/** The keys and arguments a step starts with, before its batches' (see RedisTapQueue.send). */
const STEP_KEYS = 9;
const STEP_ARGS = 5;

/**
 * A Redis that records each step the queue sends and answers it when the test says: each batch's
 * reply names its player, so that the test sees which answer reached which caller.
 */
function recordingRedis() {
  const steps: { players: string[]; answer: (replies?: TapReply[]) => void }[] = [];
  const redis = {
    defineCommand: () => undefined,
    gameTapBatch: (keyCount: number, ...rest: (string | number)[]) => {
      const args = rest.slice(keyCount + STEP_ARGS);
      const players = args.filter((_, i) => i % 5 === 0).map(String);
      expect(keyCount).toBe(STEP_KEYS + 3 * players.length);
      return new Promise<TapReply[]>((resolve) => {
        steps.push({
          players,
          answer: (replies) => resolve(replies ?? players.map((player) => ['ok', player])),
        });
      });
    },
  };
  return { redis: redis as unknown as Redis, steps };
}

function queueOn(redis: Redis) {
  return new RedisTapQueue(
    redis,
    gameKeys('queue-test'),
    { perSecond: 20, burst: 40 },
    DEFAULT_SEASON_CALENDAR,
  );
}

const batch = (i: number) => ({ userId: `p${i}`, sessionId: `s${i}`, count: 1 });

describe('RedisTapQueue', () => {
  it('sends the batches of one turn as one step, when the turn ends', async () => {
    const { redis, steps } = recordingRedis();
    const queue = queueOn(redis);
    const replies = [0, 1, 2].map((i) => queue.tap(batch(i)));
    expect(steps).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(steps.map((step) => step.players)).toEqual([['p0', 'p1', 'p2']]);
    steps[0].answer();
    expect(await Promise.all(replies)).toEqual([
      ['ok', 'p0'],
      ['ok', 'p1'],
      ['ok', 'p2'],
    ]);
  });

  it('sends a full step at once, before the turn ends, so that Redis counts while requests are read', async () => {
    const { redis, steps } = recordingRedis();
    const queue = queueOn(redis);
    const total = 2 * BATCHES_PER_STEP + 5;
    const replies = Array.from({ length: total }, (_, i) => queue.tap(batch(i)));
    // Two full steps went out in this turn; the last five wait for its end.
    expect(steps.map((step) => step.players.length)).toEqual([BATCHES_PER_STEP, BATCHES_PER_STEP]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(steps.map((step) => step.players.length)).toEqual([
      BATCHES_PER_STEP,
      BATCHES_PER_STEP,
      5,
    ]);
    // In the order called, each answer to its own caller, whatever order the steps return in.
    expect(steps.flatMap((step) => step.players)).toEqual(
      Array.from({ length: total }, (_, i) => `p${i}`),
    );
    for (const step of [...steps].reverse()) step.answer();
    const answered = await Promise.all(replies);
    expect(answered.map((reply) => reply[1])).toEqual(
      Array.from({ length: total }, (_, i) => `p${i}`),
    );
  });

  it('answers every batch of a step with not-ready when Redis has lost its data', async () => {
    const { redis, steps } = recordingRedis();
    const queue = queueOn(redis);
    const replies = [0, 1].map((i) => queue.tap(batch(i)));
    await new Promise((resolve) => setImmediate(resolve));
    steps[0].answer([['not-ready']]);
    expect(await Promise.all(replies)).toEqual([['not-ready'], ['not-ready']]);
  });
});
