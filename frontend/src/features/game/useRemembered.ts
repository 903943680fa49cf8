import { useEffect, useMemo } from 'react';
import { useHydrated } from '../../lib/hydration';
import { gameStorage } from './storage';

export const isNumber = (value: unknown): value is number => typeof value === 'number';
export const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * The server's answer for `name` (a figure of the screen), or, while it has none (offline), what
 * it last answered, kept on the device. Nothing is read before hydration: the page's HTML, made at
 * build time, knows nothing of this device. `name` null: nothing to remember (no player yet).
 */
export function useRemembered<T>(
  name: string | null,
  answer: T | undefined,
  is: (value: unknown) => value is T,
): T | undefined {
  const hydrated = useHydrated();
  useEffect(() => {
    if (name && answer !== undefined) gameStorage.remember(name, answer);
  }, [name, answer]);
  const known = useMemo(
    () => (hydrated && name ? gameStorage.known(name, is) : null),
    [hydrated, name, is],
  );
  return answer ?? known ?? undefined;
}
