import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../src/core/token-bucket';

describe('per-player token buckets', () => {
  const make = () => {
    const clock = { now: 0 };
    return { clock, buckets: new TokenBuckets({ perSecond: 10, burst: 5 }, () => clock.now) };
  };

  it('grants a whole batch or nothing: a batch above what is left takes no token', () => {
    const { clock, buckets } = make();
    expect(buckets.take('a', 6)).toBe(false);
    expect(buckets.take('a', 5)).toBe(true);
    expect(buckets.take('a', 1)).toBe(false);
    clock.now += 300;
    expect(buckets.take('a', 4)).toBe(false);
    expect(buckets.take('a', 3)).toBe(true);
    expect(buckets.take('b', 5)).toBe(true);
  });

  it('refills at the rate up to the burst, and takes back refunds', () => {
    const { clock, buckets } = make();
    expect(buckets.take('a', 5)).toBe(true);
    clock.now += 60_000;
    expect(buckets.take('a', 6)).toBe(false);
    expect(buckets.take('a', 5)).toBe(true);
    buckets.refund('a', 2);
    expect(buckets.take('a', 2)).toBe(true);
    expect(buckets.take('a', 1)).toBe(false);
  });
});
