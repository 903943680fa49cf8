import { loadToastList } from '../../src/components/ui/toaster';

// Pages load the toasts' code at their first toast; tests that drive fake timers cannot wait for
// that import, so it is loaded before they start (the Toaster then draws toasts at once).
await loadToastList();
