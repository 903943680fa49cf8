/** However busy the page stays, idle work waits no longer than this after the page's load. */
const LONGEST_WAIT_MS = 3000;

/**
 * Runs `work` once the page has loaded and its main thread is idle, so that it competes with
 * neither the first paint, nor hydration, nor the first inputs of a phone.
 */
export function whenIdle(work: () => void): void {
  const idle = () => {
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(() => work(), { timeout: LONGEST_WAIT_MS });
    } else {
      setTimeout(work, 0);
    }
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
