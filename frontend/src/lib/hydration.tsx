import {
  createContext,
  useContext,
  useDeferredValue,
  useSyncExternalStore,
  type ReactNode,
} from 'react';

const never = () => () => {};

/** True outside a `HydrationProvider` (a part rendered alone, as in unit tests): the browser's. */
const Hydrated = createContext(true);

/**
 * Holds, for the whole app, whether React has taken the page's HTML over. While the build renders
 * the page and while React hydrates it, false; then true, in a render that yields to input. A hook
 * of the store in each component that asks would turn true in a render of its own, synchronous
 * and the size of the whole page, in one long task right after hydration. Here only this provider
 * renders then (its children are the same elements, which React skips), and the value changes in
 * a deferred render, time-sliced like hydration itself.
 */
export function HydrationProvider({ children }: { children: ReactNode }) {
  const inBrowser = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  return <Hydrated.Provider value={useDeferredValue(inBrowser)}>{children}</Hydrated.Provider>;
}

/**
 * False while the page is rendered at build time and while React hydrates that HTML, true from the
 * render after (and at once on a page rendered in the browser). What only the browser knows (a
 * stored player, a sign-in, the address's query) shows once it is true, so that the first render
 * in the browser matches the HTML it takes over.
 */
export function useHydrated(): boolean {
  return useContext(Hydrated);
}
