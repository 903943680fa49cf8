/**
 * Holds the clicks on a page rendered at build time that come before React has taken its markup
 * over (its scripts are still loading: React would drop them), and gives them to the page once it
 * has; returns what does that. A link clicked meanwhile then goes where React Router takes it.
 */
export function holdEarlyClicks(container: HTMLElement): () => void {
  const held: HTMLElement[] = [];
  const hold = (event: MouseEvent) => {
    // The clicks given back below are the page's own (untrusted): they pass.
    if (!event.isTrusted) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (event.target instanceof HTMLElement) held.push(event.target);
  };
  container.addEventListener('click', hold, true);
  return () => {
    container.removeEventListener('click', hold, true);
    for (const target of held.splice(0)) if (target.isConnected) target.click();
  };
}
