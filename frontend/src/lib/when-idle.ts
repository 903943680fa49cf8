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

/** How long after the page is idle code a visitor may need is fetched if they have not acted yet. */
const SOON_AFTER_IDLE_MS = 5000;
const INPUTS = ['pointerdown', 'keydown', 'focusin'] as const;

/**
 * Runs `work` (fetching code the visitor may need next) at the visitor's first input, or a few
 * seconds after the page went idle, whichever comes first: not while the page's own content is
 * still on its way, whose downloads it would slow on a phone's network.
 */
export function whenLikelyNeeded(work: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    for (const input of INPUTS) document.removeEventListener(input, run, true);
    work();
  };
  for (const input of INPUTS) document.addEventListener(input, run, { capture: true, once: true });
  whenIdle(() => setTimeout(run, SOON_AFTER_IDLE_MS));
}
