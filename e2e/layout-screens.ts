import { Keypair } from '@solana/web3.js';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { testWalletScript } from '../frontend/test/wallet/test-wallet';
import { expectNoViolations } from './axe';
import { chromiumPath, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { photo } from './seed';
import { adminTabs, offlineAndOutOfEnergy, seededSuite, until } from './setup';

/**
 * One width in each band the styles of every screen tell apart: below 360 px (the players' table),
 * the phones from 360 px on and, from 1024 px on (`lg`, the last breakpoint used), a desktop.
 */
export const PHONE_WIDTHS = [320, 360];
export const DESKTOP = 1280;
/**
 * The wallet chooser's own styles tell 360 to 374 px from the larger phones (up to 480 px): its
 * screens are checked at 390 px too, which stands for 414 (no rule tells them apart, and the
 * narrower overflows first). Nothing else changes between 360 and 480 px.
 */
const LARGER_PHONE = 390;
/** axe checks each state at a phone's width and a desktop's: what one hides, the other shows. */
const AXE_WIDTHS = [360, DESKTOP];
/**
 * A TV is a taller desktop: no rule tells it apart but the event leaderboard's, whose type grows
 * with the screen's height; every other screen is checked at it through the desktop.
 */
const TV = 1920;
const isPhone = (width: number) => width < 1024;

/** Escape closes the open dialog, and the focus is back on the control that opened it. */
async function expectFocusReturns(page: Page, opener: Locator) {
  await page.keyboard.press('Escape');
  await until(() => page.getByRole('dialog').count()).toBe(0);
  await until(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
}

/**
 * What has the focus after each Tab, up to `presses` or the end of the page, and whether a ring
 * shows around it.
 */
async function tabThrough(page: Page, presses: number) {
  const seen: { element: string; ring: boolean }[] = [];
  for (let i = 0; i < presses; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement === document.body)) break;
    seen.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30);
        return {
          element: `${el.tagName.toLowerCase()}[${el.getAttribute('role') ?? ''}] ${name}`,
          ring: outline || style.boxShadow !== 'none',
        };
      }),
    );
  }
  return seen;
}

/**
 * The page is no wider than the screen (`scrollWidth` of the root, not `innerWidth`: an emulated
 * phone widens its layout viewport to fit wide content, so innerWidth would grow with the fault; a
 * failure names the innermost elements that reach past the edge), and, at the widths axe checks
 * and unless `axe` is false, axe finds nothing on it.
 */
async function expectFits(
  page: Page,
  width: number,
  shot: string,
  { fullPage = true, axe = true } = {},
) {
  const { scrollWidth, culprits } = await page.evaluate((edge) => {
    const beyond = (el: Element) => el.getBoundingClientRect().right > edge + 0.5;
    const culprits = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => beyond(el) && !Array.from(el.children).some(beyond))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`.slice(0, 120));
    return { scrollWidth: document.documentElement.scrollWidth, culprits };
  }, width);
  await shoot(page, `layout-${shot}-${width}`, { fullPage });
  expect(
    scrollWidth,
    `${shot} is ${scrollWidth} px wide: ${culprits.join(' | ')}`,
  ).toBeLessThanOrEqual(width);
  if (axe && AXE_WIDTHS.includes(width)) await expectNoViolations(page, `${shot} at ${width} px`);
}

/** The element lies wholly on the screen (dialogs and toasts are fixed: they never scroll in). */
async function expectOnScreen(page: Page, element: Locator) {
  const box = await element.boundingBox();
  const screen = page.viewportSize();
  expect(box).not.toBeNull();
  expect(screen).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(screen!.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(screen!.height + 0.5);
}

/** As far from the left edge of the screen as from the right one. */
async function expectCentred(page: Page, element: Locator) {
  const box = (await element.boundingBox())!;
  const right = page.viewportSize()!.width - (box.x + box.width);
  expect(Math.abs(box.x - right)).toBeLessThanOrEqual(1);
}

/**
 * A page opened at the first width of a band, whose checks hold at every width of the band: the
 * page is resized in place to each width and back (the widths of a band share their emulation,
 * a phone's or a desktop's, and every screen follows a resize as it follows a load), so that one
 * load and one walk through a screen's states serve the whole band.
 */
interface BandPage {
  readonly page: Page;
  /** At each width, the page fits and, where axe checks, passes it (see expectFits). */
  fits(shot: string, options?: { fullPage?: boolean; axe?: boolean }): Promise<void>;
  /** At each width, the element lies wholly on the screen. */
  onScreen(element: Locator): Promise<void>;
  /** At each width, the element is as far from the left edge as from the right one. */
  centred(element: Locator): Promise<void>;
  /** Runs `check` at each width, and leaves the page at the first. */
  atEach(check: (width: number) => Promise<void>): Promise<void>;
}

function bandPage(page: Page, band: readonly number[]): BandPage {
  const atEach = async (check: (width: number) => Promise<void>) => {
    const { height } = page.viewportSize()!;
    for (const width of band) {
      if (page.viewportSize()!.width !== width) await page.setViewportSize({ width, height });
      await check(width);
    }
    if (page.viewportSize()!.width !== band[0]) {
      await page.setViewportSize({ width: band[0]!, height });
    }
  };
  return {
    page,
    atEach,
    fits: (shot, options) => atEach((width) => expectFits(page, width, shot, options)),
    onScreen: (element) => atEach(() => expectOnScreen(page, element)),
    centred: (element) => atEach(() => expectCentred(page, element)),
  };
}

/** Which of the checks below a file runs: the phones' widths, or the desktop's and the rest. */
export interface LayoutBands {
  /**
   * Every screen at each of these widths: a band, whose pages open at the first width and are
   * resized to the others.
   */
  widths: number[];
  /** The wallet's screens at the larger phone's width. */
  largerPhone?: boolean;
  /** The event leaderboard on a TV, the focus rings and reduced motion. */
  tvKeyboardAndMotion?: boolean;
}

/**
 * Every screen fits the given widths and passes axe. Two files share the checks (the phones', the
 * desktop's and the rest), each with its own seeded site, so that they run side by side.
 */
export const layoutScreens = ({ widths, largerPhone, tvKeyboardAndMotion }: LayoutBands) => {
  const executable = chromiumPath();
  describe.runIf(executable)('every screen fits phones, desktops and TVs, and passes axe', () => {
    screens(executable!, { widths, largerPhone, tvKeyboardAndMotion });
  });
};

function screens(executable: string, { widths, largerPhone, tvKeyboardAndMotion }: LayoutBands) {
  const suite = seededSuite(executable);
  /** A page opened at the band's first width (see BandPage), closed after the test. */
  const openAt = async (band: readonly number[], as?: 'member' | 'visitor') =>
    bandPage(await suite.open(band[0]!, as), band);

  const eventLeaderboardFits = async (band: readonly number[]) => {
    const view = await openAt(band, 'visitor');
    const { page } = view;
    await page.goto('/leaderboard');
    const row = page.getByTestId('board-row').filter({ hasText: 'the_longest_username' });
    await until(() => row.isVisible()).toBe(true);
    await until(() => page.getByRole('status').textContent()).toContain('Live');
    await view.fits('leaderboard');

    await view.atEach(async (width) => {
      const name = row.getByText('the_longest_username');
      const whole = await name.evaluate((el) => el.scrollWidth <= el.clientWidth);
      expect(whole, `the longest name is shown whole at ${width} px`).toBe(true);
      const [players, countries] = await Promise.all(
        ['Top Players', 'Top Countries'].map((title) =>
          page.getByRole('heading', { name: title }).locator('..').boundingBox(),
        ),
      );
      if (isPhone(width)) {
        expect(countries!.y).toBeGreaterThanOrEqual(players!.y + players!.height - 1);
      } else {
        expect(countries!.y).toBe(players!.y);
        // An event screen does not scroll.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        expect(height).toBeLessThanOrEqual(page.viewportSize()!.height);
      }
    });
  };

  /**
   * The wallet chooser and a connected wallet, at a width of each band (the chooser has bands of
   * its own).
   */
  const walletScreens = (band: readonly number[]) => {
    const width = band[0]!;
    it('LOLGram for a visitor: the auth dialog and the wallet chooser', async () => {
      const view = await openAt(band, 'visitor');
      const { page } = view;
      await page.addInitScript({ content: testWalletScript(Keypair.generate().secretKey) });
      await page.goto('/lolgram');
      const login = page.getByRole('button', { name: 'Login / Sign Up' }).first();
      await login.click();
      const dialog = page.getByRole('dialog');
      await until(() => dialog.isVisible()).toBe(true);
      await until(() => page.getByRole('button', { name: 'Select Wallet' }).isVisible()).toBe(true);
      await view.fits('lolgram-auth', { fullPage: false });
      await view.onScreen(dialog);
      await expectFocusReturns(page, login);

      await page.getByRole('tab', { name: 'Profile' }).click();
      const select = page.getByRole('button', { name: 'Select Wallet' });
      await select.click();
      const chooser = page.getByRole('dialog');
      await until(() => chooser.getByRole('button', { name: /Test Wallet/ }).isVisible()).toBe(
        true,
      );
      await view.onScreen(chooser);
      await view.fits('lolgram-wallet-chooser', { fullPage: false });
      await chooser.getByRole('button', { name: /options/ }).click();
      await until(() => chooser.getByRole('button', { name: /Phantom/ }).isVisible()).toBe(true);
      await view.fits('lolgram-wallet-chooser-more', { fullPage: false });
      await expectFocusReturns(page, select);
    });

    it('LOLGram: a wallet user’s wallet, connected, on the profile (and in a desktop’s header)', async () => {
      const keypair = Keypair.generate();
      const address = keypair.publicKey.toBase58();
      const view = await openAt(band, 'visitor');
      const { page } = view;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.addInitScript({
        content: testWalletScript(keypair.secretKey, { signIn: true }),
      });
      await page.goto('/lolgram?tab=profile');
      await page.getByRole('button', { name: 'Select Wallet' }).click();
      await page.getByRole('button', { name: /Test Wallet/ }).click();
      // The spec's connected state: the address shortened to its first and last 4 characters.
      const shortened = `${address.slice(0, 4)}..${address.slice(-4)}`;
      const onProfile = page.getByTestId('profile-wallet');
      const wallet = onProfile.getByRole('button', { name: shortened });
      await until(() => wallet.isVisible()).toBe(true);
      const inHeader = page.getByTestId('header-wallet');
      if (isPhone(width)) expect(await inHeader.count()).toBe(0);
      else {
        await until(() => inHeader.getByRole('button', { name: shortened }).isVisible()).toBe(true);
        await view.onScreen(inHeader);
      }
      await view.onScreen(wallet);
      await view.fits('lolgram-wallet-connected');

      await wallet.click();
      const menu = onProfile.getByRole('menu');
      for (const item of ['Copy address', 'Change wallet', 'Disconnect']) {
        await until(() => menu.getByRole('menuitem', { name: item }).isVisible()).toBe(true);
      }
      await view.onScreen(menu);
      await view.fits('lolgram-wallet-menu', { fullPage: false });
      await menu.getByRole('menuitem', { name: 'Copy address' }).click();
      await until(() => page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    });
  };

  describe(`at ${widths.join(' and ')} px wide`, () => {
    const band = widths;
    const width = band[0]!;
    // The wallet's screens also at the larger phone's width, where the chooser's styles differ.
    walletScreens(largerPhone ? [...band, LARGER_PHONE] : band);

    it('the landing page and the 404 page', async () => {
      const view = await openAt(band, 'visitor');
      const { page } = view;
      await page.goto('/');
      await until(() => page.getByRole('link', { name: 'Play the game' }).isVisible()).toBe(true);
      await view.fits('landing');
      await page.goto('/no/such/page');
      await until(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).toBe(
        true,
      );
      await view.fits('not-found');
    });

    it('the game with its welcome dialog, centred', async () => {
      const view = await openAt(band, 'visitor');
      const { page } = view;
      await page.goto('/play');
      const dialog = page.getByRole('dialog');
      await until(() => dialog.isVisible()).toBe(true);
      await view.fits('play-welcome', { fullPage: false });
      await view.onScreen(dialog);
      await view.centred(dialog);
    });

    it('the game of a player: header links named, the contract address shrinks, toasts centred', async () => {
      const view = await openAt(band);
      const { page } = view;
      await page.goto('/play');
      const board = page.getByRole('complementary', { name: 'Leaderboard' });
      await until(() => board.getByText('the_longest_username').isVisible()).toBe(true);
      await until(() => page.getByTestId('stat-Rank').textContent()).toMatch(/^#\d+$/);
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      for (const name of ['Social', 'Chart', 'LOLGram']) {
        expect(await page.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
      }
      await view.onScreen(page.getByRole('button', { name: 'Copy CA' }));
      await view.onScreen(page.getByTestId('tap-character'));
      await view.fits('play');

      await page.getByRole('button', { name: 'Copy CA' }).click();
      const toast = page.locator('[data-variant]').first();
      await until(() => toast.isVisible()).toBe(true);
      await view.onScreen(toast);
      // The toast leaves by itself: axe, which reads the page for a while, checks the page without.
      await view.fits('play-toast', { fullPage: false, axe: false });
      if (isPhone(width)) await view.centred(toast);

      // Offline with taps waiting, the energy gauge empty: the status line and the gauge fit.
      const stopTapping = await offlineAndOutOfEnergy(page);
      await view.onScreen(page.getByTestId('tap-status'));
      await view.fits('play-offline');
      const gauge = page.getByRole('meter', { name: 'Tap energy' });
      await view.atEach(async (width) => {
        const [bar, character] = await Promise.all([
          gauge.boundingBox(),
          page.getByTestId('tap-character').boundingBox(),
        ]);
        expect(bar!.width).toBeGreaterThan(isPhone(width) ? 100 : 300);
        expect(bar!.y).toBeGreaterThan(character!.y + character!.height - 1);
      });
      await stopTapping();
    });

    it('the event leaderboard: boards stacked on a phone, side by side on a screen, names whole', () =>
      eventLeaderboardFits(band));

    it('LOLGram: the feed, explore, map and profile tabs', async () => {
      const view = await openAt(band);
      const { page } = view;
      await page.goto('/lolgram');
      await until(() => page.getByRole('article').first().isVisible()).toBe(true);
      await until(() => page.getByRole('button', { name: 'Your profile' }).isVisible()).toBe(true);
      await view.fits('lolgram-feed');
      await page.getByRole('tab', { name: 'Explore' }).click();
      await until(() => page.getByRole('list', { name: 'Posts' }).isVisible()).toBe(true);
      await view.fits('lolgram-explore');
      await page.getByRole('tab', { name: 'Map' }).click();
      await until(() => page.getByText('Llanfairpwllgwyngyll').first().isVisible()).toBe(true);
      await view.fits('lolgram-map');
      await page.getByRole('tab', { name: 'Profile' }).click();
      await until(() => page.getByRole('button', { name: 'Edit Profile' }).isVisible()).toBe(true);
      await view.fits('lolgram-profile');
    });

    it('LOLGram dialogs: edit profile, report and notifications, each giving the focus back', async () => {
      const view = await openAt(band);
      const { page } = view;
      await page.goto('/lolgram?tab=profile');
      const edit = page.getByRole('button', { name: 'Edit Profile' });
      await until(() => edit.isVisible()).toBe(true);
      await edit.click();
      const dialog = page.getByRole('dialog');
      await until(() => dialog.isVisible()).toBe(true);
      await view.onScreen(dialog);
      await view.fits('lolgram-edit-profile', { fullPage: false });
      await expectFocusReturns(page, edit);

      await page.getByRole('tab', { name: 'Feed' }).click();
      const options = page.getByRole('button', { name: 'Post options' }).first();
      await until(() => options.isVisible()).toBe(true);
      await options.click();
      await page.getByRole('menuitem', { name: 'Report' }).click();
      await until(() => dialog.isVisible()).toBe(true);
      await view.onScreen(dialog);
      await view.fits('lolgram-report', { fullPage: false });
      await expectFocusReturns(page, options);

      const bell = page.getByTestId('notification-bell');
      await bell.click();
      const notifications = page.getByRole('dialog', { name: 'Notifications' });
      await until(() => notifications.isVisible()).toBe(true);
      await until(() => notifications.getByRole('status').count()).toBe(0);
      await view.onScreen(notifications);
      await view.fits('lolgram-notifications', { fullPage: false });
      await expectFocusReturns(page, bell);
    });

    it('LOLGram: the Saved and Blocked tabs, the author’s menu and the caption, delete and block dialogs', async () => {
      const view = await openAt(band);
      const { page } = view;
      const { ownPost, blocked, author } = suite.site;
      await page.goto('/lolgram?tab=profile');
      await page.getByRole('tab', { name: 'Saved' }).click();
      const saved = page.getByRole('tabpanel', { name: 'Saved' }).getByRole('link').first();
      await until(() => saved.isVisible()).toBe(true);
      await view.fits('lolgram-saved');
      await page.getByRole('tab', { name: 'Blocked' }).click();
      const unblock = page.getByRole('button', { name: `Unblock @${blocked}` });
      await until(() => unblock.isVisible()).toBe(true);
      await view.onScreen(unblock);
      await view.fits('lolgram-blocked');

      await page.goto(`/lolgram/p/${ownPost.id}`);
      const options = page.getByRole('button', { name: 'Post options' });
      await until(() => options.isVisible()).toBe(true);
      await options.click();
      const menu = page.getByRole('menu', { name: 'Post options' });
      await until(() => menu.isVisible()).toBe(true);
      await view.onScreen(menu);
      await view.fits('lolgram-post-menu', { fullPage: false });
      const dialog = page.getByRole('dialog');
      for (const [item, shot] of [
        ['Edit caption', 'lolgram-edit-caption'],
        ['Delete', 'lolgram-delete-post'],
      ] as const) {
        if (!(await menu.isVisible())) await options.click();
        await page.getByRole('menuitem', { name: item }).click();
        await until(() => dialog.isVisible()).toBe(true);
        await view.onScreen(dialog);
        await view.fits(shot, { fullPage: false });
        await expectFocusReturns(page, options);
      }

      await page.goto(`/lolgram/${author}`);
      const profileOptions = page.getByRole('button', { name: 'Profile options' });
      await profileOptions.click();
      await page.getByRole('menuitem', { name: `Block @${author}` }).click();
      await until(() => dialog.isVisible()).toBe(true);
      await view.onScreen(dialog);
      await view.onScreen(dialog.getByRole('button', { name: 'Block' }));
      // The longest name the rules allow wraps in the title: the dialog does not scroll sideways.
      expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await view.fits('lolgram-block-dialog', { fullPage: false });
      await expectFocusReturns(page, profileOptions);
    });

    it('LOLGram: create a post, through the crop dialog, with Share on a 740 px screen', async () => {
      const view = await openAt(band);
      const { page } = view;
      await page.goto('/lolgram');
      await until(() => page.getByRole('button', { name: 'Your profile' }).isVisible()).toBe(true);
      const createButton = page.getByRole('button', { name: 'Create post' });
      await createButton.click();
      const dialog = page.getByRole('dialog');
      await until(() => dialog.isVisible()).toBe(true);
      await view.onScreen(dialog);
      await view.fits('lolgram-create-empty', { fullPage: false });
      await dialog.getByTestId('post-image-input').setInputFiles({
        name: 'tall.png',
        mimeType: 'image/png',
        buffer: await photo(600, 1000),
      });
      const crop = page.getByRole('dialog', { name: 'Crop Your Photo' });
      await until(() => crop.getByRole('button', { name: 'Use Photo' }).isEnabled()).toBe(true);
      await view.onScreen(crop);
      await view.fits('lolgram-crop', { fullPage: false });
      await crop.getByRole('button', { name: 'Use Photo' }).click();
      await until(() => crop.count()).toBe(0);

      const create = page.getByRole('dialog', { name: 'Create New LOL' });
      await create.getByLabel('Caption').fill('fits on a phone');
      // In sight without scrolling: the dialog keeps its actions at the bottom.
      const share = create.getByRole('button', { name: 'Share' });
      await view.onScreen(create);
      await view.onScreen(share);
      await view.fits('lolgram-create-post', { fullPage: false });
      await expectFocusReturns(page, createButton);
    });

    it('a public profile', async () => {
      const view = await openAt(band);
      const { page } = view;
      await page.goto(`/lolgram/${suite.site.author}`);
      await until(() =>
        page.getByRole('heading', { name: `@${suite.site.author}` }).isVisible(),
      ).toBe(true);
      await until(() => page.getByRole('list', { name: 'Posts' }).isVisible()).toBe(true);
      await until(() => page.getByRole('button', { name: 'Follow' }).isVisible()).toBe(true);
      await view.fits('lolgram-public-profile');
    });

    it('a post on its own page, opened from its shared address', async () => {
      const view = await openAt(band);
      const { page } = view;
      const { author, post } = suite.site;
      await page.goto(`/lolgram/p/${post.id}`);
      const card = page.getByRole('article', { name: `Post by ${author}` });
      // Loaded, so that the screenshot shows the post as it is seen, not a grey square.
      await until(() =>
        card
          .getByRole('img', { name: post.caption })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      ).toBe(true);
      await until(() => card.getByText(post.caption).isVisible()).toBe(true);
      // What one comes to a post for is in sight without scrolling.
      await view.onScreen(page.getByRole('button', { name: 'Back' }));
      await view.onScreen(card.getByRole('button', { name: 'Post options' }));
      await view.onScreen(card.getByRole('button', { name: 'LOL' }));
      await view.fits('lolgram-post');
    });

    it('the admin dashboard with each tab, its tab bar within the screen', async () => {
      const view = await openAt(band);
      const { page } = view;
      await page.goto('/admin');
      await until(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(
        true,
      );
      const tabs = page.getByRole('tablist');
      for (const [tab, ready] of adminTabs(page)) {
        await tabs.getByRole('tab', { name: tab }).click();
        await until(() => ready.isVisible()).toBe(true);
        await view.onScreen(tabs.getByRole('tab', { name: tab }));
        await view.fits(`admin-${tab.toLowerCase().replace(' ', '-')}`);
      }
    });

    it("a game player's page for the operators, with its charts and the freeze dialog", async () => {
      const view = await openAt(band);
      const { page } = view;
      const { player } = suite.site;
      await page.goto(`/admin/players/${player.id}`);
      const name = page.getByRole('heading', { level: 1, name: `@${player.username}` });
      await until(() => name.isVisible()).toBe(true);
      // Drawn, so that the screenshot shows the charts rather than their placeholders.
      await until(() => page.locator('figure canvas').count()).toBe(3);
      const freeze = page.getByRole('button', { name: 'Freeze', exact: true });
      await view.onScreen(freeze);
      await view.fits('admin-player');

      await freeze.click();
      const dialog = page.getByRole('dialog', { name: `Freeze @${player.username}?` });
      await until(() => dialog.isVisible()).toBe(true);
      await view.fits('admin-freeze-dialog-empty', { fullPage: false });
      await dialog.getByRole('button', { name: 'Freeze player' }).click();
      await until(() => dialog.getByRole('alert').isVisible()).toBe(true);
      await view.onScreen(dialog);
      await view.onScreen(dialog.getByRole('button', { name: 'Freeze player' }));
      await view.fits('admin-freeze-dialog', { fullPage: false });
      await expectFocusReturns(page, freeze);
    });
  });

  if (!tvKeyboardAndMotion) return;
  describe(`at ${TV} px wide`, () => {
    it('the event leaderboard: boards stacked on a phone, side by side on a screen, names whole', () =>
      eventLeaderboardFits([TV]));
  });

  it('shows a focus ring on everything the keyboard reaches', async () => {
    const { page } = await openAt([DESKTOP]);
    for (const [path, ready, least] of [
      ['/lolgram', page.getByRole('article').first(), 10],
      ['/play', page.getByTestId('tap-character'), 5],
      // The overview has no controls: the tab bar and its panel.
      ['/admin', page.getByRole('heading', { name: 'Admin Dashboard' }), 2],
    ] as const) {
      await page.goto(path);
      await until(() => ready.isVisible()).toBe(true);
      const seen = await tabThrough(page, 25);
      expect(seen.length, `${path}: controls the keyboard reached`).toBeGreaterThanOrEqual(least);
      expect(
        seen.filter((s) => !s.ring).map((s) => s.element),
        `${path}: focused without a ring`,
      ).toEqual([]);
    }
  });

  it('stills motion for those who ask for less of it', async () => {
    for (const reducedMotion of ['reduce', 'no-preference'] as const) {
      const context = await suite.browser.newContext({
        reducedMotion,
        ...WITHOUT_SERVICE_WORKER,
      });
      try {
        const page = await context.newPage();
        await page.goto(`${suite.site.url}/leaderboard`);
        // The dot pulses once the screen is live (before, it says it is connecting).
        const status = page.getByRole('status').filter({ hasText: 'Live' });
        await until(() => status.isVisible()).toBe(true);
        const live = status.locator('span').first();
        const seconds = await live.evaluate((el) =>
          parseFloat(getComputedStyle(el).animationDuration),
        );
        if (reducedMotion === 'reduce') expect(seconds).toBeLessThan(0.01);
        else expect(seconds).toBeGreaterThan(0.5);
      } finally {
        await context.close();
      }
    }
  });
}
