import { useSyncExternalStore, type ReactElement } from 'react';
import { TOAST_LIMIT } from '../lib/ui-constants';

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: 'default' | 'destructive';
  action?: ReactElement;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

/** How long a dismissed toast stays mounted for its exit animation. */
const REMOVE_DELAY_MS = 300;

let toasts: ToastItem[] = [];
const listeners = new Set<() => void>();
let counter = 0;

function set(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismiss(id?: string): void {
  set(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  setTimeout(
    () => set(toasts.filter((t) => t.open || (id !== undefined && t.id !== id))),
    REMOVE_DELAY_MS,
  );
}

/** Shows a toast; only the newest TOAST_LIMIT (one) are kept, as the spec asks. */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter += 1;
  const id = String(counter);
  set([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismiss(id) };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToast() {
  const current = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  return { toasts: current, toast, dismiss };
}
