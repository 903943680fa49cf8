import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from '../../src/features/game/throttle';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('throttle', () => {
  it('runs at once when idle and once more, with the newest arguments, at the end of a burst', () => {
    const fn = vi.fn();
    const refresh = throttle(fn, 1000);
    refresh('a');
    refresh('b');
    refresh('c');
    expect(fn.mock.calls).toEqual([['a']]);
    vi.advanceTimersByTime(1000);
    expect(fn.mock.calls).toEqual([['a'], ['c']]);
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('runs at once again after a quiet window', () => {
    const fn = vi.fn();
    const refresh = throttle(fn, 1000);
    refresh('a');
    vi.advanceTimersByTime(1000);
    refresh('b');
    expect(fn.mock.calls).toEqual([['a'], ['b']]);
  });

  it('drops the trailing run when cancelled', () => {
    const fn = vi.fn();
    const refresh = throttle(fn, 1000);
    refresh('a');
    refresh('b');
    refresh.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn.mock.calls).toEqual([['a']]);
  });
});
