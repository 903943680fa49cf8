import { describe, expect, it } from 'vitest';
import { FailureLimiter } from '../../src/lolgram/accounts/failure-limiter';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('FailureLimiter', () => {
  it('counts up to the limit, refuses without counting, and frees the key a window after its last count', () => {
    const time = clock();
    const limiter = new FailureLimiter(3, 1000, time.now);
    expect([1, 2, 3, 4].map(() => limiter.take('k'))).toEqual([true, true, true, false]);
    expect(limiter.blocked('k')).toBe(true);
    time.advance(999);
    expect(limiter.take('k')).toBe(false);
    time.advance(1);
    expect(limiter.blocked('k')).toBe(false);
    expect(limiter.take('k')).toBe(true);
  });

  it('takes one count back on forgive and all on reset', () => {
    const limiter = new FailureLimiter(2, 1000, clock().now);
    limiter.take('k');
    limiter.take('k');
    limiter.forgive('k');
    expect(limiter.blocked('k')).toBe(false);
    limiter.take('k');
    limiter.reset('k');
    expect(limiter.take('k') && limiter.take('k')).toBe(true);
  });

  it('drops expired keys as it goes and never holds more than its key bound', () => {
    const time = clock();
    const limiter = new FailureLimiter(5, 1000, time.now, 100);
    for (let i = 0; i < 50; i += 1) limiter.take(`old-${i}`);
    time.advance(1000);
    limiter.take('new');
    expect(limiter.size).toBe(1);
    for (let i = 0; i < 1000; i += 1) limiter.take(`flood-${i}`);
    expect(limiter.size).toBeLessThanOrEqual(100);
    expect(limiter.blocked('flood-999')).toBe(false);
    expect(limiter.take('flood-999')).toBe(true);
  });
});
