import { inTelegram } from './launch';
import type { TelegramShell } from './shell';

/**
 * The page's side of Telegram's shell, cheap on the web: every call is a no-op outside Telegram,
 * and inside it is kept until the SDK (loaded apart, after the page) is running, then applied.
 */
let shell: TelegramShell | null = null;
let route: string | null = null;
let unsent = 0;

/** Back from a screen the Mini App opened on top of another, or to the game when it is the first. */
function back() {
  const state = window.history.state as { idx?: number } | null;
  if ((state?.idx ?? 0) > 0) window.history.back();
  else window.location.assign('/play');
}

/** The shell's load, once for the page: a second call while it is under way waits for it. */
let loading: Promise<void> | null = null;

/** Loads and starts the SDK in a Mini App launch; nothing on the web. */
export function loadTelegramShell(): Promise<void> {
  if (!inTelegram()) return Promise.resolve();
  if (!loading) {
    loading = import('./shell').then(({ startTelegramShell }) => {
      shell = startTelegramShell(back);
      if (route !== null) shell.route(route);
      shell.unsent(unsent);
    });
    // A load that failed (the network, on the way) leaves the next call free to try again.
    loading.catch(() => (loading = null));
  }
  return loading;
}

export const telegramShell = {
  route(path: string) {
    route = path;
    shell?.route(path);
  },
  unsent(count: number) {
    unsent = count;
    shell?.unsent(count);
  },
  tapped() {
    shell?.tapped();
  },
  /** Shares through Telegram when the page runs in it; false on the web (the caller shares). */
  share(url: string, text: string): boolean {
    if (!shell) return false;
    shell.share(url, text);
    return true;
  },
};
