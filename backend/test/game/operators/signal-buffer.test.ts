import { describe, expect, it } from 'vitest';
import { merge } from '../../../src/game/signal-buffer';

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
