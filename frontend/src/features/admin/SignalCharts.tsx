import type { PlayerDay } from '@tapgram/shared';
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayLabel } from './player-format';
import { signalCharts, type SignalChart } from './signal-series';

/*
 * The player page's small charts, drawn by uPlot on a canvas. This module is loaded only with the
 * player page (React.lazy), so the charting library stays out of the dashboard's first load. Each
 * chart says what it shows in words (its aria-label); the page's table has every figure.
 */

const HEIGHT = 150;
const AXIS = '#94a3b8';
const GRID = '#1e293b';

/** A browser without a 2D canvas (or a test's DOM) shows the words and the table only. */
function canDraw(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

function options(chart: SignalChart, labels: string[], width: number): uPlot.Options {
  const bars = uPlot.paths.bars;
  const axis = {
    stroke: AXIS,
    grid: { stroke: GRID, width: 1 },
    ticks: { stroke: GRID, width: 1 },
  };
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    // No drag-to-zoom: on a phone a drag scrolls the page.
    cursor: { drag: { x: false, y: false } },
    scales: {
      // The days are at 0, 1, 2…: half a day of margin keeps the first and last bars whole.
      x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      {
        ...axis,
        incrs: [1, 2, 7, 14, 30],
        space: 40,
        values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
      },
      { ...axis, size: 48, values: (_u, splits) => splits.map(chart.tick) },
    ],
    series: [
      {},
      ...chart.series.map((series, index) => ({
        label: series.label,
        stroke: series.color,
        width: 2,
        ...(chart.kind === 'bars' && bars
          ? {
              fill: series.color,
              paths: bars({ size: [0.35, 28], align: index === 0 ? (-1 as const) : (1 as const) }),
              points: { show: false },
            }
          : { points: { show: true, size: 6, fill: series.color } }),
      })),
    ],
  };
}

function Chart({ chart, labels }: { chart: SignalChart; labels: string[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = box.current;
    if (!target || !canDraw()) return;
    const xs = labels.map((_label, index) => index);
    const plot = new uPlot(
      options(chart, labels, target.clientWidth),
      [xs, ...chart.series.map((series) => series.values)],
      target,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: target.clientWidth, height: HEIGHT }),
    );
    resize.observe(target);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [chart, labels]);

  return (
    <figure className="min-w-0 rounded-xl bg-slate-800/40 p-3">
      <figcaption className="mb-2 text-sm font-semibold">{chart.title}</figcaption>
      <div ref={box} role="img" aria-label={chart.summary} className="w-full overflow-hidden" />
      <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-300" aria-hidden="true">
        {chart.series.map((series) => (
          <li key={series.label} className="flex items-center gap-1.5">
            <span className="h-2.5 w-2.5 rounded-sm" style={{ backgroundColor: series.color }} />
            {series.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}

export function SignalCharts({ days }: { days: PlayerDay[] }) {
  const charts = useMemo(() => signalCharts(days), [days]);
  const labels = useMemo(() => days.map((day) => dayLabel(day.day)), [days]);
  return (
    <div className="grid gap-3 md:grid-cols-2 lg:grid-cols-3">
      {charts.map((chart) => (
        <Chart key={chart.id} chart={chart} labels={labels} />
      ))}
    </div>
  );
}
