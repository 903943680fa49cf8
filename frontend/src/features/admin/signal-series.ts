import type { PlayerDay } from '@tapgram/shared';
import { count, dayLabel, duration, variation } from './player-format';

export interface SignalSeries {
  label: string;
  color: string;
  values: (number | null)[];
}

/** One small chart of a player's days: what it draws, and the same said in words. */
export interface SignalChart {
  id: 'taps' | 'active' | 'regularity';
  title: string;
  kind: 'bars' | 'lines';
  series: SignalSeries[];
  /** How the y axis writes a value. */
  tick: (value: number) => string;
  /** The chart's text alternative. */
  summary: string;
}

const COLORS = {
  taps: '#fbbf24',
  refused: '#f87171',
  active: '#38bdf8',
  streak: '#a78bfa',
  size: '#34d399',
  interval: '#e879f9',
};

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const HOUR = 3600;

function busiest(days: PlayerDay[], value: (day: PlayerDay) => number): PlayerDay | undefined {
  return days.reduce<PlayerDay | undefined>(
    (best, day) => (value(day) > (best ? value(best) : 0) ? day : best),
    undefined,
  );
}

function lowest(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.min(...known);
}

function tapsChart(days: PlayerDay[]): SignalChart {
  const taps = days.reduce((sum, d) => sum + d.taps, 0);
  const refused = days.reduce((sum, d) => sum + d.refused, 0);
  const top = busiest(days, (d) => d.taps + d.refused);
  return {
    id: 'taps',
    title: 'Taps per day',
    kind: 'bars',
    series: [
      { label: 'Counted', color: COLORS.taps, values: days.map((d) => d.taps) },
      { label: 'Refused', color: COLORS.refused, values: days.map((d) => d.refused) },
    ],
    tick: (value) => compact.format(value),
    summary:
      `Taps per day over ${days.length} days: ${count(taps)} counted, ${count(refused)} refused` +
      (top
        ? `; the busiest day, ${dayLabel(top.day)}, had ${count(top.taps)} counted and ${count(top.refused)} refused.`
        : '.'),
  };
}

function activeChart(days: PlayerDay[]): SignalChart {
  const top = busiest(days, (d) => d.activeSeconds);
  const run = busiest(days, (d) => d.longestStreakSeconds);
  return {
    id: 'active',
    title: 'Active time per day',
    kind: 'bars',
    series: [
      { label: 'Active', color: COLORS.active, values: days.map((d) => d.activeSeconds / HOUR) },
      {
        label: 'Longest run without a pause',
        color: COLORS.streak,
        values: days.map((d) => d.longestStreakSeconds / HOUR),
      },
    ],
    // Under an hour in minutes: tenths of an hour would label small ticks alike (0 h, 0 h).
    tick: (hours) =>
      hours < 1 ? `${Math.round(hours * 60)} min` : `${Math.round(hours * 10) / 10} h`,
    summary: top
      ? `Active time per day over ${days.length} days: the most, ${duration(top.activeSeconds)}, on ${dayLabel(top.day)}; ` +
        `the longest run without a pause, ${duration(run?.longestStreakSeconds ?? 0)}.`
      : `No active time over ${days.length} days.`,
  };
}

function regularityChart(days: PlayerDay[]): SignalChart {
  const size = days.map((d) => d.sizeVariation);
  const interval = days.map((d) => d.intervalVariation);
  const [lowSize, lowInterval] = [lowest(size), lowest(interval)];
  return {
    id: 'regularity',
    title: 'Regularity (lower is more even)',
    kind: 'lines',
    series: [
      { label: 'Batch size variation', color: COLORS.size, values: size },
      { label: 'Interval variation', color: COLORS.interval, values: interval },
    ],
    tick: (value) => value.toFixed(2),
    summary:
      lowSize === null && lowInterval === null
        ? `Regularity over ${days.length} days: too few batches to tell.`
        : `Regularity over ${days.length} days, lower is more even (a person's taps vary): ` +
          `lowest batch size variation ${variation(lowSize)}, lowest interval variation ${variation(lowInterval)}.`,
  };
}

/** The player page's charts of the signal window's days (oldest first). */
export function signalCharts(days: PlayerDay[]): SignalChart[] {
  return [tapsChart(days), activeChart(days), regularityChart(days)];
}
