import { vi } from 'vitest';

/** Telegram's `bg_color` of a dark theme (the e2e test's), and of a light one. */
export const DARK_BACKGROUND = '#17212b';
export const LIGHT_BACKGROUND = '#ffffff';

/** Init data as Telegram hands it to a launch (its fields are the SDK's; no server checks them). */
export function makeInitData(userId = 7): string {
  return new URLSearchParams({
    user: JSON.stringify({ id: userId, first_name: 'Tess' }),
    auth_date: '1700000000',
    hash: 'a'.repeat(64),
    signature: 'signed-by-telegram',
  }).toString();
}

/** The hash Telegram opens the Mini App with: the signed init data and the client's details. */
export function launchHash({
  initData = makeInitData(),
  version = '8.0',
  background = DARK_BACKGROUND,
}: { initData?: string; version?: string; background?: string } = {}): string {
  const params = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: version,
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify({ bg_color: background, text_color: '#f5f5f5' }),
  });
  return `#${params.toString()}`;
}

/** Puts the tab at `url` (path and hash), as it was opened. */
export function openAt(url: string): void {
  window.history.replaceState(null, '', url);
}

export type Call = [name: string, params: unknown];

interface TelegramWindow {
  Telegram: { WebView: { receiveEvent(name: string, data?: unknown): void } };
}

/** What Telegram answers to the requests the SDK makes while it mounts. */
const ANSWERS: Record<string, [event: string, data: unknown]> = {
  web_app_request_viewport: [
    'viewport_changed',
    { height: 600, width: 360, is_expanded: false, is_state_stable: true },
  ],
  web_app_request_safe_area: ['safe_area_changed', { top: 24, bottom: 16, left: 0, right: 0 }],
  web_app_request_content_safe_area: [
    'content_safe_area_changed',
    { top: 0, bottom: 0, left: 0, right: 0 },
  ],
};

/**
 * Telegram's side of the Mini App bridge, as its apps give it to the page: a
 * `TelegramWebviewProxy` whose `postEvent` receives every method the page calls (recorded here),
 * and events sent back through `Telegram.WebView.receiveEvent`, which the SDK installs. Removed by
 * `vi.unstubAllGlobals()`.
 */
export function fakeTelegram() {
  const calls: Call[] = [];
  const send = (event: string, data?: unknown) =>
    (window as unknown as TelegramWindow).Telegram.WebView.receiveEvent(event, data);
  vi.stubGlobal('TelegramWebviewProxy', {
    postEvent(name: string, data?: string) {
      calls.push([name, data === undefined ? null : (JSON.parse(data) as unknown)]);
      const answer = ANSWERS[name];
      // Telegram answers after the call has returned, as its apps do.
      if (answer) queueMicrotask(() => send(...answer));
    },
  });
  return {
    /** The names of the methods called so far, in order. */
    names: () => calls.map(([name]) => name),
    /** The parameters of every call of `name` so far, in order. */
    paramsOf: (name: string) => calls.filter(([made]) => made === name).map(([, params]) => params),
    /** The calls `step` made (the SDK posts at once, in the call). */
    during(step: () => void): Call[] {
      const before = calls.length;
      step();
      return calls.slice(before);
    },
    /** An event from Telegram (a press of its Back button, say). */
    send,
  };
}

export type FakeTelegram = ReturnType<typeof fakeTelegram>;
