import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger';
import type { DaySignals, SignalsRepository } from '../../../src/game/signals-repository';
import { merge, SignalBuffer } from '../../../src/game/signal-buffer';

/** Moments of `values` added one by one, as the tap path adds batches. */
function moments(values: number[]) {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (const x of values) {
    n += 1;
    const d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
  }
  return { n, mean, m2 };
}

describe('merging signal moments written at different times', () => {
  it('gives the moments of all the values, as if added in one run', () => {
    const before = [3, 9, 4, 12, 7];
    const after = [1, 8, 8, 2];
    const merged = merge(moments(before), moments(after));
    const whole = moments([...before, ...after]);
    expect(merged.n).toBe(whole.n);
    expect(merged.mean).toBeCloseTo(whole.mean, 10);
    expect(merged.m2).toBeCloseTo(whole.m2, 10);
  });

  it('keeps either side when the other is empty', () => {
    const some = moments([5, 6, 7]);
    expect(merge(moments([]), some)).toEqual(some);
    expect(merge(some, moments([]))).toEqual(some);
    expect(merge(moments([]), moments([]))).toEqual({ n: 0, mean: 0, m2: 0 });
  });
});

describe('refusals of batches a client sends again', () => {
  const HOLD_MS = 60_000;
  /** A buffer writing to a list instead of Postgres (the merge itself is tested above and in the operators' tests). */
  function makeBuffer() {
    const clock = { now: Date.UTC(2026, 0, 5, 12) };
    const written: DaySignals[] = [];
    const repo = { mergeSignals: async (rows: DaySignals[]) => void written.push(...rows) };
    const buffer = new SignalBuffer({
      repo: repo as unknown as SignalsRepository,
      pauseMs: 120_000,
      logger: createLogger('silent'),
      now: () => clock.now,
      refusalHoldMs: HOLD_MS,
    });
    const refused = async (userId: string) => {
      await buffer.write();
      return written.filter((row) => row.userId === userId).reduce((n, row) => n + row.refused, 0);
    };
    return { clock, buffer, refused };
  }

  it('does not record a refused batch that is sent again and counted whole within the hold', async () => {
    const { clock, buffer, refused } = makeBuffer();
    buffer.refused('p', 30, 's#4');
    clock.now += 1500;
    buffer.refused('p', 30, 's#4');
    clock.now += 500;
    buffer.counted('p', 30, 's#4');
    clock.now += 2 * HOLD_MS;
    expect(await refused('p')).toBe(0);
  });

  it('records a refused batch not counted within the hold, once however often it was refused', async () => {
    const { clock, buffer, refused } = makeBuffer();
    buffer.refused('p', 30, 's#4');
    buffer.refused('p', 30, 's#4');
    clock.now += HOLD_MS - 1;
    expect(await refused('p')).toBe(0);
    clock.now += 1;
    expect(await refused('p')).toBe(30);
    // Counted after the hold: too late, the refusal stands.
    buffer.counted('p', 30, 's#4');
    expect(await refused('p')).toBe(30);
  });

  it('records at once a refused batch without a name, and a named one counted at another size', async () => {
    const { buffer, refused } = makeBuffer();
    buffer.refused('p', 7);
    expect(await refused('p')).toBe(7);
    buffer.refused('q', 40, 's@key');
    buffer.counted('q', 1, 's@key');
    expect(await refused('q')).toBe(40);
  });

  it('holds a bounded number of refusals per player, recording the others at once', async () => {
    const { buffer, refused } = makeBuffer();
    for (let i = 1; i <= 100; i += 1) buffer.refused('p', 1, `s#${i}`);
    expect(await refused('p')).toBe(36);
  });

  it('records the refusals it holds when the process stops', async () => {
    const { buffer, refused } = makeBuffer();
    buffer.refused('p', 12, 's#1');
    await buffer.close();
    expect(await refused('p')).toBe(12);
  });
});
