import { describe, expect, it } from 'vitest';
import { dayDate, streakBonus, streakOn, utcDay, type StreakRules } from '../src/streak';

const T = 20_000; // a day number: the tests count days from it

/** Counted days as offsets from T. */
const counted = (...offsets: number[]) => offsets.map((offset) => T + offset);

describe('streakOn', () => {
  it.each([
    ['no day counted', [], 0, 0],
    ['today counted, first ever', [0], 0, 1],
    ['yesterday counted, today under way (not a miss)', [-1], 0, 1],
    ['five days in a row up to today', [-4, -3, -2, -1, 0], 0, 5],
    ['five days in a row up to yesterday', [-5, -4, -3, -2, -1], 0, 5],
    ['one missed day is forgiven: the streak goes on', [-5, -4, -2, -1, 0], 0, 5],
    ['a forgiven miss before today: the streak stands', [-6, -5, -4, -3, -2], 0, 5],
    ['a second miss within seven days halves', [-8, -7, -6, -5, -3, -1, 0], 0, 4],
    [
      'a miss seven days after a forgiven one is forgiven again',
      range(-20, 0).filter((d) => d !== -15 && d !== -8),
      0,
      19,
    ],
    [
      'two missed days in a row: one forgiven, one halves',
      [-7, -6, -5, -4, -3, -2, -1, 0].filter((d) => d !== -3 && d !== -2),
      0,
      4,
    ],
    ['a long absence halves it day after day down to nothing', range(-40, -9), 0, 0],
    ['halving rounds down; a streak worn to nothing starts again', [-10, -9, -8, -6, -4, 0], 0, 1],
  ])('%s', (_name, offsets, today, expected) => {
    expect(streakOn(counted(...offsets), T + today).streak).toBe(expected);
  });

  it('halves 8 to 4 on a second missed day, never to zero at once', () => {
    // 8 days counted, then two days missed (the first forgiven), today not yet counted.
    const days = counted(...range(-10, -3));
    expect(streakOn(days, T - 2).streak).toBe(8);
    expect(streakOn(days, T - 1).streak).toBe(8); // day -2 missed: forgiven
    expect(streakOn(days, T).streak).toBe(4); // day -1 missed too: halved
  });

  it('ignores days after today and repeated days', () => {
    expect(streakOn(counted(0, 0, 1, 2), T).streak).toBe(1);
  });

  it('names the last forgiven day', () => {
    expect(streakOn(counted(-3, -1), T).lastForgiven).toBe(T - 2);
    expect(streakOn(counted(-1, 0), T).lastForgiven).toBeNull();
  });

  it('takes a few milliseconds for a year of play with misses', () => {
    const days = range(-365, 0).filter((d) => d % 5 !== 0);
    const started = performance.now();
    expect(streakOn(counted(...days), T).streak).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe('streakBonus', () => {
  const rules: StreakRules = { dailyTaps: 100, bonusBase: 10, bonusCap: 100 };
  it.each([
    [0, 0],
    [1, 10],
    [3, 30],
    [10, 100],
    [11, 100],
    [400, 100],
  ])('a streak of %i gives %i points (capped)', (streak, points) => {
    expect(streakBonus(streak, rules)).toBe(points);
  });
});

describe('UTC days', () => {
  it('counts days from 1970-01-01 in UTC, whatever the local zone', () => {
    const ms = Date.parse('2026-11-28T23:59:59.999Z');
    expect(dayDate(utcDay(ms))).toBe('2026-11-28');
    expect(dayDate(utcDay(ms + 1))).toBe('2026-11-29');
  });
});

/** from..to, both included. */
function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
