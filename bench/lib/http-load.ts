import autocannon from 'autocannon';
import { round } from './stats';

/** One autocannon run: a fixed `amount` of requests, or `seconds` of load. */
export async function cannon(options: autocannon.Options & { seconds?: number }) {
  const { seconds = 10, ...rest } = options;
  const limit = rest.amount ? {} : { duration: seconds };
  const started = performance.now();
  const result = await autocannon({ connections: 100, ...limit, ...rest });
  const elapsed = (performance.now() - started) / 1000;
  return {
    // Answers over the run's own length: autocannon's average is per whole second, too coarse
    // for a run of a fixed number of requests.
    requestsPerSecond: round(result.requests.total / elapsed, 0),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    other: result.non2xx + result.errors + result.timeouts,
  };
}
