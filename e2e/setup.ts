import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Locator,
  Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { launch, WITHOUT_SERVICE_WORKER } from './browser';
import { MEMBER_COUNTRY, seedSite, viewportOptions, type SeededSite } from './seed';

/** Waits for a value (the server and the browser share two cores with other work). */
export const until = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/**
 * Waits until the game has loaded the seeded member's player, whose country its Country tile then
 * shows: the page has been hydrated and a tap counts (its HTML, rendered at build time, already
 * shows the tiles, with their placeholders).
 */
export const memberPlaying = (page: Page) =>
  until(() => page.getByTestId('stat-Country').textContent()).toContain(MEMBER_COUNTRY);

/**
 * Taps the character `times` at once, from inside the page (faster than clicks, and than the
 * allowance refills).
 */
export const tapFast = (page: Page, times: number) =>
  page.getByTestId('tap-character').evaluate((el, n) => {
    for (let i = 0; i < n; i += 1) {
      const box = el.getBoundingClientRect();
      const init = {
        bubbles: true,
        button: 0,
        pointerType: 'touch',
        isPrimary: true,
        clientX: box.left + box.width / 2,
        clientY: box.top + box.height / 2,
      };
      el.dispatchEvent(new PointerEvent('pointerdown', init));
      el.dispatchEvent(new PointerEvent('pointerup', init));
    }
  }, times);

/**
 * Takes the page offline and keeps tapping faster than the allowance refills, until the screen
 * says it is offline with taps waiting and the energy gauge is empty; answers how to stop tapping.
 */
export async function offlineAndOutOfEnergy(page: Page): Promise<() => Promise<number>> {
  await page.context().setOffline(true);
  const stop = await outOfEnergy(page);
  await until(() => page.getByTestId('tap-status').getAttribute('data-state')).toBe('offline');
  return stop;
}

/**
 * Keeps tapping faster than the allowance refills until the energy gauge is empty; answers how
 * to stop, which answers how many taps were made.
 */
export async function outOfEnergy(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="tap-character"]')!;
    const box = el.getBoundingClientRect();
    const init = {
      bubbles: true,
      button: 0,
      pointerType: 'touch',
      isPrimary: true,
      clientX: box.left + box.width / 2,
      clientY: box.top + box.height / 2,
    };
    const state = window as unknown as { tapper: number; tapped: number };
    state.tapped = 0;
    const tap = () => {
      el.dispatchEvent(new PointerEvent('pointerdown', init));
      el.dispatchEvent(new PointerEvent('pointerup', init));
      state.tapped += 1;
    };
    for (let i = 0; i < 60; i += 1) tap();
    // Several a tick: a busy page runs its timers late.
    state.tapper = window.setInterval(() => {
      for (let i = 0; i < 4; i += 1) tap();
    }, 20);
  });
  await until(() => page.getByTestId('energy-gauge').getAttribute('data-empty')).toBe('true');
  return () =>
    page.evaluate(() => {
      const state = window as unknown as { tapper: number; tapped: number };
      clearInterval(state.tapper);
      return state.tapped;
    });
}

/** The admin dashboard's tabs, each with what shows that its panel has loaded. */
export const adminTabs = (page: Page): [tab: string, ready: Locator][] => [
  ['Overview', page.getByText('System Health')],
  // Its last part: the accounts of comment waves, below the queue (the seed makes one).
  ['Content Moderation', page.getByRole('list', { name: 'Accounts in comment waves' })],
  ['Analytics', page.getByText('Engagement Metrics')],
  ['Reports', page.getByText('Reports by reason')],
  ['Players', page.getByRole('navigation', { name: 'Pages of players' })],
];

/**
 * The contexts a test opens, each closed after it (registered in the calling `describe`): a page
 * left open keeps its timers, sockets and polls running beside the tests that follow.
 */
export function contextsClosedAfterEach(): BrowserContext[] {
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  return contexts;
}

/** The seeded site and the browser that looks at it, ready from the suite's `beforeAll` on. */
export interface SeededSuite {
  readonly site: SeededSite;
  readonly browser: Browser;
  /**
   * A page of `width` px whose paths are relative to the site, signed in as the seeded member
   * unless `visitor`; closed after the test. Motion is reduced, so that no screenshot catches an
   * animation half-way. No service worker runs unless `options` allow it.
   */
  open(width: number, as?: 'member' | 'visitor', options?: BrowserContextOptions): Promise<Page>;
}

/**
 * Registers, in the calling `describe`, the hooks that start the real server in-process, launch
 * the browser and seed the site once for the whole suite, and close each test's page after it.
 */
export function seededSuite(executable: string): SeededSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let site: SeededSite | undefined;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    // The seeded players all come from this machine's address: a low network threshold gives each
    // of them a suspicion reason, so that the screens show one.
    server = await startTestServer({ env: { SUSPICION_NETWORK_PLAYERS: '5' } });
    browser = await launch(executable);
    site = await seedSite(server, browser);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const ready = () => {
    if (!site || !browser) throw new Error('The suite is set up in beforeAll: use it in a test.');
    return { site, browser };
  };
  return {
    get site() {
      return ready().site;
    },
    get browser() {
      return ready().browser;
    },
    async open(width, as = 'member', options = {}) {
      const { site, browser } = ready();
      context = await browser.newContext({
        ...viewportOptions(width),
        ...(as === 'member' ? { storageState: site.member } : {}),
        baseURL: site.url,
        reducedMotion: 'reduce',
        ...WITHOUT_SERVICE_WORKER,
        ...options,
      });
      return context.newPage();
    },
  };
}
