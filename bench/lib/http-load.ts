import autocannon from 'autocannon';
import { SERVER_NODE_FLAGS, startChild } from './processes';
import { round } from './stats';

/** CPU seconds (user + system) this process has used: the load generator runs in it. */
function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** One autocannon run: a fixed `amount` of requests, or `seconds` of load. */
export async function cannon(options: autocannon.Options & { seconds?: number }) {
  const { seconds = 10, ...rest } = options;
  const limit = rest.amount ? {} : { duration: seconds };
  const started = performance.now();
  const cpuBefore = ownCpuSeconds();
  const result = await autocannon({ connections: 100, ...limit, ...rest });
  const elapsed = (performance.now() - started) / 1000;
  return {
    /** The load generator's CPU per answer, in µs. */
    loadMicros: round(
      ((ownCpuSeconds() - cpuBefore) * 1e6) / Math.max(1, result.requests.total),
      1,
    ),
    answers: result.requests.total,
    // Answers over the run's own length: autocannon's average is per whole second, too coarse
    // for a run of a fixed number of requests.
    requestsPerSecond: round(result.requests.total / elapsed, 0),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    other: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The ceiling: what a bare Node HTTP handler (bench/ceiling-server.ts) answers on this machine
 * under the same load, measured in the same run as the app beside it.
 */
export async function measureCeiling(
  name: string,
  options: Omit<autocannon.Options, 'url'> & { path: string; seconds?: number },
) {
  const { path, ...rest } = options;
  const ceiling = await startChild(
    [...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/ceiling-server.ts'],
    {},
  );
  try {
    const cpuBefore = ceiling.cpuSeconds();
    const bare = await cannon({ ...rest, url: `${ceiling.url}${path}` });
    const serverMicros = ((ceiling.cpuSeconds() - cpuBefore) * 1e6) / Math.max(1, bare.answers);
    return {
      name,
      figures: {
        'req/s': bare.requestsPerSecond,
        'p50 ms': bare.p50,
        'p99 ms': bare.p99,
        'server CPU µs/req': round(serverMicros, 1),
        'load generator CPU µs/req': bare.loadMicros,
      },
    };
  } finally {
    await ceiling.stop();
  }
}
