import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the page is rendered at build time and while React hydrates that HTML, true from the
 * render after (and at once on a page rendered in the browser). What only the browser knows (a
 * stored player, a sign-in, the address's query) shows once it is true, so that the first render
 * in the browser matches the HTML it takes over.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
