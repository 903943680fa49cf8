import { describe, expect, it } from 'vitest';
import { DEFAULT_TAP_ALLOWANCE, TapBucket } from '../src/tap-allowance';

describe('the tap allowance bucket', () => {
  const make = (allowance = { perSecond: 10, burst: 5 }) => {
    const clock = { now: 1_000_000 };
    return { clock, bucket: new TapBucket(allowance, () => clock.now) };
  };

  it('starts full, takes a batch whole or not at all, and refills at the rate up to the burst', () => {
    const { clock, bucket } = make();
    expect(bucket.take(6)).toBe(false);
    expect(bucket.take(5)).toBe(true);
    expect(bucket.take(1)).toBe(false);
    clock.now += 300;
    expect(bucket.available()).toBeCloseTo(3);
    expect(bucket.take(4)).toBe(false);
    expect(bucket.take(3)).toBe(true);
    clock.now += 60_000;
    expect(bucket.available()).toBe(5);
    expect(bucket.full).toBe(true);
  });

  it('says when it will hold a batch: now, later, or never when the batch is above the burst', () => {
    const { clock, bucket } = make();
    bucket.take(5);
    expect(bucket.msUntil(2)).toBe(200);
    clock.now += 150;
    expect(bucket.msUntil(2)).toBe(50);
    expect(bucket.msUntil(1)).toBe(0);
    expect(bucket.msUntil(6)).toBe(Infinity);
  });

  it('gives back refunds up to the burst', () => {
    const { bucket } = make();
    bucket.take(4);
    bucket.refund(10);
    expect(bucket.available()).toBe(5);
  });

  it('follows a holder that says when a batch will fit (a 429), below empty if need be', () => {
    const { clock, bucket } = make();
    bucket.holdsIn(3, 700);
    expect(bucket.take(1)).toBe(false);
    expect(bucket.msUntil(3)).toBe(700);
    clock.now += 700;
    expect(bucket.take(3)).toBe(true);
  });

  it('takes another allowance, keeping what it holds up to the new burst', () => {
    const { clock, bucket } = make({ perSecond: 20, burst: 40 });
    bucket.setAllowance({ perSecond: 2, burst: 4 });
    expect(bucket.available()).toBe(4);
    bucket.take(4);
    clock.now += 1000;
    expect(bucket.available()).toBeCloseTo(2);
    expect(bucket.allowance).toEqual({ perSecond: 2, burst: 4 });
  });

  it('defaults to the server defaults, 20 taps a second with a burst of 40', () => {
    expect(DEFAULT_TAP_ALLOWANCE).toEqual({ perSecond: 20, burst: 40 });
    expect(new TapBucket().available()).toBe(40);
  });
});
