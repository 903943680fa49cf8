export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Latencies as counts per bucket (0.1 ms below 100 ms, 1 ms above), so that load-generator
 * processes hand back a few thousand numbers, not every sample.
 */
export type Histogram = Map<number, number>;

export function record(histogram: Histogram, ms: number): void {
  const bucket = ms < 100 ? Math.round(ms * 10) / 10 : Math.round(ms);
  histogram.set(bucket, (histogram.get(bucket) ?? 0) + 1);
}

export function mergeInto(target: Histogram, entries: Iterable<[number, number]>): void {
  for (const [bucket, count] of entries) target.set(bucket, (target.get(bucket) ?? 0) + count);
}

export function summarizeHistogram(histogram: Histogram) {
  const buckets = [...histogram].sort((a, b) => a[0] - b[0]);
  const count = buckets.reduce((n, [, c]) => n + c, 0);
  const at = (p: number) => {
    const rank = Math.max(1, Math.ceil((p / 100) * count));
    let seen = 0;
    for (const [bucket, c] of buckets) {
      seen += c;
      if (seen >= rank) return bucket;
    }
    return NaN;
  };
  return { count, p50: round(at(50)), p99: round(at(99)), max: round(buckets.at(-1)?.[0] ?? NaN) };
}
