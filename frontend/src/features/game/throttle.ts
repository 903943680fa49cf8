export interface Throttled<A extends unknown[]> {
  (...args: A): void;
  cancel: () => void;
}

/**
 * Runs `fn` at most once per `ms`: at once when the last run is older than that, otherwise once
 * at the end of the window with the newest arguments, so the last call of a burst is never lost.
 */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number): Throttled<A> {
  let lastRun = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let trailing: A | null = null;

  const run = (args: A) => {
    lastRun = Date.now();
    fn(...args);
  };

  const throttled = (...args: A) => {
    const wait = lastRun + ms - Date.now();
    if (wait <= 0 && !timer) {
      run(args);
      return;
    }
    trailing = args;
    timer ??= setTimeout(
      () => {
        timer = null;
        const latest = trailing;
        trailing = null;
        if (latest) run(latest);
      },
      Math.max(0, wait),
    );
  };
  throttled.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    trailing = null;
  };
  return throttled;
}
