import { useEffect, useState, type ComponentType } from 'react';
import { useToast } from '../../hooks/use-toast';

let loaded: ComponentType | null = null;
let loading: Promise<ComponentType> | null = null;

/** Loads the toasts' code (Radix Toast); a page that never shows one never loads it. */
export function loadToastList(): Promise<ComponentType> {
  loading ??= import('./toast-list').then(
    ({ ToastList }) => {
      loaded = ToastList;
      return ToastList;
    },
    (error: unknown) => {
      // Offline, say: the next toast tries again.
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Where toasts show: nothing until the first one, then the list, kept for the next ones. */
export function Toaster() {
  const { toasts } = useToast();
  const [List, setList] = useState<ComponentType | null>(() => loaded);
  const wanted = toasts.length > 0 && List === null;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    loadToastList().then(
      (list) => {
        if (live) setList(() => list);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  return List ? <List /> : null;
}
