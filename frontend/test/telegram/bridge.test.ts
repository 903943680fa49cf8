import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TelegramShell } from '../../src/features/telegram/shell';
import { launchHash, openAt } from './fake-telegram';

/**
 * The shell as the bridge sees it: what the page told it, in order. The SDK behind it has tests of
 * its own (shell.test.ts); here it is the bridge's keeping and passing on that counts.
 */
const started = vi.hoisted(() => ({
  backs: [] as (() => void)[],
  told: [] as unknown[][],
}));
vi.mock('../../src/features/telegram/shell', () => ({
  startTelegramShell(back: () => void): TelegramShell {
    started.backs.push(back);
    return {
      route: (path) => started.told.push(['route', path]),
      unsent: (count) => started.told.push(['unsent', count]),
      tapped: () => started.told.push(['tapped']),
      share: (url, text) => started.told.push(['share', url, text]),
    };
  },
}));

/** A fresh page: the bridge and the launch it reads keep their state for the page's life. */
async function load() {
  vi.resetModules();
  return import('../../src/features/telegram/bridge');
}

beforeEach(() => {
  started.backs = [];
  started.told = [];
  sessionStorage.clear();
});

describe('the Telegram bridge on the web', () => {
  beforeEach(() => {
    openAt('/play');
  });

  it('loads no shell, and every call is a harmless no-op', async () => {
    const { loadTelegramShell, telegramShell } = await load();
    telegramShell.route('/lolgram');
    telegramShell.unsent(2);
    telegramShell.tapped();
    await loadTelegramShell();
    expect(started.backs).toHaveLength(0);
    expect(started.told).toEqual([]);
  });

  it('says it did not share, so that the page shares its own way', async () => {
    const { telegramShell } = await load();
    expect(telegramShell.share('https://tapgram.example/play', 'Tap with me')).toBe(false);
    expect(started.told).toEqual([]);
  });
});

describe('the Telegram bridge in a Mini App launch', () => {
  beforeEach(() => {
    openAt(`/play${launchHash()}`);
  });

  it('applies what the page said before the SDK loaded: the latest route and unsent count', async () => {
    const { loadTelegramShell, telegramShell } = await load();
    telegramShell.route('/play');
    telegramShell.route('/lolgram');
    telegramShell.unsent(4);
    telegramShell.unsent(3);
    // A tap before the shell runs has no haptic to catch up on.
    telegramShell.tapped();
    expect(started.told).toEqual([]);

    await loadTelegramShell();
    expect(started.told).toEqual([
      ['route', '/lolgram'],
      ['unsent', 3],
    ]);
  });

  it('sends no route before the page has one, and no unsent taps as zero', async () => {
    const { loadTelegramShell } = await load();
    await loadTelegramShell();
    expect(started.told).toEqual([['unsent', 0]]);
  });

  it('passes every call straight on once the shell runs, and shares through Telegram', async () => {
    const { loadTelegramShell, telegramShell } = await load();
    await loadTelegramShell();
    started.told = [];
    telegramShell.route('/leaderboard');
    telegramShell.unsent(1);
    telegramShell.tapped();
    expect(telegramShell.share('https://tapgram.example/play', 'Tap with me')).toBe(true);
    expect(started.told).toEqual([
      ['route', '/leaderboard'],
      ['unsent', 1],
      ['tapped'],
      ['share', 'https://tapgram.example/play', 'Tap with me'],
    ]);
  });

  it('starts the shell once, however often it is loaded after that', async () => {
    const { loadTelegramShell, telegramShell } = await load();
    await loadTelegramShell();
    await loadTelegramShell();
    expect(started.backs).toHaveLength(1);
    // The one shell started is the one the page talks to.
    telegramShell.tapped();
    expect(started.told.at(-1)).toEqual(['tapped']);
  });

  it('starts one shell for two loads under way at once', async () => {
    const { loadTelegramShell } = await load();
    await Promise.all([loadTelegramShell(), loadTelegramShell()]);
    expect(started.backs).toHaveLength(1);
  });
});

describe('Telegram’s Back button, as the bridge handles it', () => {
  /** The bridge's Back, as the shell was given it. */
  async function backOfShell(): Promise<() => void> {
    openAt(`/play${launchHash()}`);
    const { loadTelegramShell } = await load();
    await loadTelegramShell();
    expect(started.backs).toHaveLength(1);
    return started.backs[0]!;
  }

  it('goes back to the screen the Mini App opened this one from', async () => {
    const back = await backOfShell();
    // React Router numbers its history entries (`idx`): this screen is the second.
    window.history.replaceState({ idx: 0 }, '', '/leaderboard');
    window.history.pushState({ idx: 1 }, '', '/lolgram');
    back();
    await expect.poll(() => window.location.pathname).toBe('/leaderboard');
  });

  it('goes to the game from the first screen of the launch, not to what the tab showed before', async () => {
    const back = await backOfShell();
    window.history.replaceState(null, '', '/leaderboard');
    window.history.pushState({ idx: 0 }, '', '/lolgram');
    back();
    await expect.poll(() => window.location.pathname).toBe('/play');
  });
});
