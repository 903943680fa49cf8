/**
 * Whether Telegram opened this page as its Mini App, read from the launch parameters Telegram
 * puts in the page's hash (`tgWebAppData`, the signed init data). No SDK here: this module is on
 * the web's path too, and costs it a hash lookup.
 */
const KEPT = 'tapgram.telegram.launch';

let read = false;
let params: URLSearchParams | null = null;

/**
 * Whether the page may be in Telegram's webview: its apps give the page a bridge object, its web
 * clients show the page in a frame. Elsewhere the tab's storage is not even opened (its first use
 * costs a phone tens of milliseconds during hydration).
 */
const maybeTelegram = () => 'TelegramWebviewProxy' in window || window.parent !== window;

function readParams(): URLSearchParams | null {
  if (typeof window === 'undefined') return null;
  const hash = window.location.hash;
  if (!hash.includes('tgWebAppData') && !maybeTelegram()) return null;
  const fromHash = new URLSearchParams(hash.slice(1));
  try {
    if (fromHash.has('tgWebAppData')) {
      // Kept for this tab: a reload inside Telegram's webview may come without the hash.
      sessionStorage.setItem(KEPT, fromHash.toString());
      return fromHash;
    }
    const kept = sessionStorage.getItem(KEPT);
    return kept ? new URLSearchParams(kept) : null;
  } catch {
    // Storage refused (a private mode): the hash alone says it.
    return fromHash.has('tgWebAppData') ? fromHash : null;
  }
}

/** The launch parameters of this tab's Mini App launch, or null on the web. */
export function telegramLaunchParams(): URLSearchParams | null {
  if (!read) {
    params = readParams();
    read = true;
  }
  return params;
}

/** The signed init data Telegram handed this launch, as it came; null on the web. */
export function telegramInitData(): string | null {
  const data = telegramLaunchParams()?.get('tgWebAppData');
  return data ? data : null;
}

export const inTelegram = (): boolean => telegramInitData() !== null;
