/** What marks an element that takes presses (pointer-down) rather than clicks: the tap character. */
export const EARLY_PRESS_ATTRIBUTE = 'data-early-press';

interface HeldPress {
  target: HTMLElement;
  init: PointerEventInit;
}

/**
 * Holds the clicks on a page rendered at build time that come before React has taken its markup
 * over (its scripts are still loading: React would drop them), and gives them to the page once it
 * has; returns what does that. A link clicked meanwhile then goes where React Router takes it. An
 * element marked `data-early-press` answers a press, not a click (a tap on the game's character):
 * its presses are held too, and given back as a press and its release.
 */
export function holdEarlyClicks(container: HTMLElement): () => void {
  // Elements, not only HTML ones: a tap on a tab's or a button's icon lands on its SVG.
  const held: Element[] = [];
  const presses: HeldPress[] = [];
  const hold = (event: MouseEvent) => {
    // The clicks given back below are the page's own (untrusted): they pass.
    if (!event.isTrusted) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (event.target instanceof Element) held.push(event.target);
  };
  const holdPress = (event: PointerEvent) => {
    if (!event.isTrusted || event.button !== 0 || !(event.target instanceof Element)) return;
    const target = event.target.closest<HTMLElement>(`[${EARLY_PRESS_ATTRIBUTE}]`);
    if (!target) return;
    presses.push({
      target,
      init: {
        bubbles: true,
        cancelable: true,
        button: 0,
        clientX: event.clientX,
        clientY: event.clientY,
        pointerId: event.pointerId,
        pointerType: event.pointerType,
        isPrimary: event.isPrimary,
      },
    });
  };
  container.addEventListener('click', hold, true);
  container.addEventListener('pointerdown', holdPress, true);
  return () => {
    container.removeEventListener('click', hold, true);
    container.removeEventListener('pointerdown', holdPress, true);
    for (const { target, init } of presses.splice(0)) {
      if (!target.isConnected) continue;
      target.dispatchEvent(new PointerEvent('pointerdown', init));
      target.dispatchEvent(new PointerEvent('pointerup', init));
    }
    for (const target of held.splice(0)) {
      if (!target.isConnected) continue;
      if (target instanceof HTMLElement) target.click();
      else target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    }
  };
}
