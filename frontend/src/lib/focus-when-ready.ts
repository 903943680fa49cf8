/** How long the focus waits for its new place (a list read again, a page that opens). */
const WAIT_MS = 3000;
/** Frames the focus must stay put once the dialogs are closed (a closing dialog gives it back). */
const SETTLED_FRAMES = 3;

const OPEN_DIALOG = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

/**
 * Gives the focus to what comes next after an action that removed what had it (a deleted post, a
 * decided queue item, a closed sign-in dialog): `find` is asked on each frame until no dialog is
 * open and it answers an element, which gets the focus and keeps it for a few frames (a closing
 * dialog gives the focus back to its opener a moment later). Gives up after a few seconds, or
 * once the user put the focus elsewhere themselves: anywhere but the page, the place given, or
 * `leaving` (what the action removes, which may hold the focus until it goes).
 */
export function focusWhenReady(find: () => HTMLElement | null, leaving?: Element | null): void {
  const started = performance.now();
  let settled = 0;
  let placed: HTMLElement | null = null;
  const step = () => {
    if (performance.now() - started > WAIT_MS) return;
    if (!document.querySelector(OPEN_DIALOG)) {
      const active = document.activeElement;
      const ours =
        !active ||
        active === document.body ||
        !active.isConnected ||
        active === placed ||
        (leaving?.isConnected === true && leaving.contains(active));
      if (!ours) return;
      const target = find();
      if (target) {
        if (active !== target) target.focus();
        placed = target;
        settled += 1;
        if (settled >= SETTLED_FRAMES) return;
      }
    }
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}
