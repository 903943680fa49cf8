import {
  backButton,
  closingBehavior,
  hapticFeedback,
  init,
  miniApp,
  shareURL,
  swipeBehavior,
  themeParams,
  viewport,
} from '@telegram-apps/sdk';

/** The least time between two haptic taps: a fast tapper feels a buzz, not a drone. */
const HAPTIC_EVERY_MS = 80;
/** The game's own background, for Telegram's header and the area behind the page. */
const GAME_BACKGROUND: `#${string}` = '#020617';

/** What the page tells Telegram's shell, and asks of it. */
export interface TelegramShell {
  /** The page moved to `path`: vertical swipes off on the game, the Back button elsewhere. */
  route(path: string): void;
  /** Taps waiting to be sent: while any wait, closing the Mini App asks first. */
  unsent(count: number): void;
  /** A tap counted: a light haptic, at most one each HAPTIC_EVERY_MS. */
  tapped(): void;
  /** Opens Telegram's share sheet for `url`. */
  share(url: string, text: string): void;
}

/** Calls `action` if the running Telegram supports it; an older client just lacks the feature. */
function ifAvailable(action: () => void): void {
  try {
    action();
  } catch {
    // An unsupported method on an older Telegram: the game plays on without it.
  }
}

/**
 * Starts the SDK in a Mini App launch: full height, Telegram's theme as CSS variables (the page's
 * Telegram styles read them), the safe areas, and the behaviours the page switches by route and
 * by its unsent taps.
 */
export function startTelegramShell(back: () => void): TelegramShell {
  init();
  document.documentElement.classList.add('telegram');
  ifAvailable(() => {
    themeParams.mountSync();
    themeParams.bindCssVars();
  });
  // A dark Telegram theme's background suits the game; a light one would not: the game stays dark.
  let background: `#${string}` = GAME_BACKGROUND;
  ifAvailable(() => {
    const themed = themeParams.backgroundColor();
    if (themeParams.isDark() && themed) {
      background = themed;
      document.documentElement.classList.add('telegram-dark');
    }
  });
  ifAvailable(() => {
    miniApp.mountSync();
    miniApp.setHeaderColor(background);
    miniApp.setBackgroundColor(background);
  });
  ifAvailable(() => {
    void viewport
      .mount()
      .then(() => {
        viewport.bindCssVars();
        viewport.expand();
      })
      .catch(() => undefined);
  });
  ifAvailable(() => swipeBehavior.mount());
  ifAvailable(() => closingBehavior.mount());
  ifAvailable(() => {
    backButton.mount();
    backButton.onClick(back);
  });
  ifAvailable(() => miniApp.ready());

  let lastHaptic = 0;
  let confirming = false;
  return {
    route(path) {
      const playing = path === '/play';
      ifAvailable(() =>
        playing ? swipeBehavior.disableVertical() : swipeBehavior.enableVertical(),
      );
      ifAvailable(() => (playing ? backButton.hide() : backButton.show()));
    },
    unsent(count) {
      const waiting = count > 0;
      if (waiting === confirming) return;
      confirming = waiting;
      ifAvailable(() =>
        waiting ? closingBehavior.enableConfirmation() : closingBehavior.disableConfirmation(),
      );
    },
    tapped() {
      const now = performance.now();
      if (now - lastHaptic < HAPTIC_EVERY_MS) return;
      lastHaptic = now;
      ifAvailable(() => hapticFeedback.impactOccurred('light'));
    },
    share(url, text) {
      shareURL(url, text);
    },
  };
}
