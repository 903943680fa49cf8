import { afterAll } from 'vitest';

/**
 * Libraries keep timers running after a test file ends (the wallet adapters poll for browser
 * extensions, the wallet modal fades out); fired after the page is torn down, they would throw
 * "window is not defined" outside any test. Every timer a test file starts is cleared when the
 * file is done.
 */
const pending = new Set<ReturnType<typeof setTimeout>>();
const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;

globalThis.setTimeout = ((
  handler: (...args: unknown[]) => void,
  ms?: number,
  ...args: unknown[]
) => {
  const id = realSetTimeout(() => {
    pending.delete(id);
    handler(...args);
  }, ms);
  pending.add(id);
  return id;
}) as typeof setTimeout;

globalThis.clearTimeout = ((id?: ReturnType<typeof setTimeout>) => {
  if (id !== undefined) pending.delete(id);
  realClearTimeout(id);
}) as typeof clearTimeout;

// The same for intervals (the wallet adapters' extension polling is one).
const intervals = new Set<ReturnType<typeof setInterval>>();
const { setInterval: realSetInterval, clearInterval: realClearInterval } = globalThis;

globalThis.setInterval = ((
  handler: (...args: unknown[]) => void,
  ms?: number,
  ...args: unknown[]
) => {
  const id = realSetInterval(handler, ms, ...args);
  intervals.add(id);
  return id;
}) as typeof setInterval;

globalThis.clearInterval = ((id?: ReturnType<typeof setInterval>) => {
  if (id !== undefined) intervals.delete(id);
  realClearInterval(id);
}) as typeof clearInterval;

afterAll(() => {
  for (const id of pending) realClearTimeout(id);
  pending.clear();
  for (const id of intervals) realClearInterval(id);
  intervals.clear();
});
