import AxeBuilder from '@axe-core/playwright';
import { Keypair } from '@solana/web3.js';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { testWalletScript } from '../frontend/test/wallet/test-wallet';
import { chromiumPath, launch, screenshotPath } from './browser';
import { openPage, photo, seedSite, type SeededSite } from './seed';

const executable = chromiumPath();
/** A phone and a desktop. */
const WIDTHS = [360, 1280];

/** Waits for a value (the server and the browser share two cores with other work). */
const until = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/** axe-core's whole rule set (WCAG A and AA, and its best practices) finds nothing. */
async function expectNoViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(found, what).toEqual([]);
}

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

describe.runIf(executable)('accessibility: axe finds nothing on every screen and dialog', () => {
  let server: TestServer;
  let browser: Browser;
  let site: SeededSite;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launch(executable!);
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

  const open = async (width: number, as: 'member' | 'visitor' = 'member') => {
    const opened = await openPage(browser, width, as === 'member' ? site.member : undefined);
    context = opened.context;
    return opened.page;
  };

  describe.each(WIDTHS)('at %i px wide', (width) => {
    it('the landing page, the 404 page and the event leaderboard', async () => {
      const page = await open(width, 'visitor');
      await page.goto(site.url);
      await until(() => page.getByRole('link', { name: 'Play the game' }).isVisible()).toBe(true);
      await expectNoViolations(page, 'landing');
      await page.goto(`${site.url}/no/such/page`);
      await until(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).toBe(
        true,
      );
      await expectNoViolations(page, '404');
      await page.goto(`${site.url}/leaderboard`);
      await until(() => page.getByTestId('board-row').first().isVisible()).toBe(true);
      await expectNoViolations(page, 'leaderboard');
    });

    it('the game, with and without its welcome dialog', async () => {
      let page = await open(width, 'visitor');
      await page.goto(`${site.url}/play`);
      await until(() => page.getByRole('dialog').isVisible()).toBe(true);
      await expectNoViolations(page, 'welcome dialog');
      await context!.close();

      page = await open(width);
      await page.goto(`${site.url}/play`);
      await until(() => page.getByTestId('stat-Rank').textContent()).toMatch(/^#\d+$/);
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      await expectNoViolations(page, 'game');
    });

    it('LOLGram: each tab, and the edit profile and report dialogs', async () => {
      const page = await open(width);
      await page.goto(`${site.url}/lolgram`);
      await until(() => page.getByRole('button', { name: 'Your profile' }).isVisible()).toBe(true);
      await until(() => page.getByRole('article').first().isVisible()).toBe(true);
      await expectNoViolations(page, 'feed');
      for (const tab of ['Explore', 'Map', 'Profile']) {
        await page.getByRole('tab', { name: tab }).click();
        await until(() => page.getByRole('tabpanel', { name: tab }).isVisible()).toBe(true);
        await expectNoViolations(page, tab);
      }

      const edit = page.getByRole('button', { name: 'Edit Profile' });
      await edit.click();
      await until(() => page.getByRole('dialog', { name: 'Edit Profile' }).isVisible()).toBe(true);
      await expectNoViolations(page, 'edit profile dialog');
      await expectFocusReturns(page, edit);

      await page.getByRole('tab', { name: 'Feed' }).click();
      const options = page.getByRole('button', { name: 'Post options' }).first();
      await options.click();
      await page.getByRole('menuitem', { name: 'Report' }).click();
      await until(() => page.getByRole('dialog', { name: 'Report this post' }).isVisible()).toBe(
        true,
      );
      await expectNoViolations(page, 'report dialog');
      await expectFocusReturns(page, options);
    });

    it('LOLGram: the create post and crop dialogs', async () => {
      const page = await open(width);
      await page.goto(`${site.url}/lolgram`);
      await until(() => page.getByRole('button', { name: 'Your profile' }).isVisible()).toBe(true);
      const create = page.getByRole('button', { name: 'Create post' });
      await create.click();
      const dialog = page.getByRole('dialog', { name: 'Create New LOL' });
      await until(() => dialog.isVisible()).toBe(true);
      await expectNoViolations(page, 'create post dialog');
      await dialog
        .getByTestId('post-image-input')
        .setInputFiles({ name: 'meme.png', mimeType: 'image/png', buffer: await photo() });
      const crop = page.getByRole('dialog', { name: 'Crop Your Photo' });
      await until(() => crop.getByRole('button', { name: 'Use Photo' }).isEnabled()).toBe(true);
      await expectNoViolations(page, 'crop dialog');
      await crop.getByRole('button', { name: 'Use Photo' }).click();
      await until(() => crop.count()).toBe(0);
      await expectNoViolations(page, 'create post dialog with a photo');
      await expectFocusReturns(page, create);
    });

    it('LOLGram for a visitor: the auth dialog and the wallet chooser', async () => {
      const page = await open(width, 'visitor');
      await page.addInitScript({ content: testWalletScript(Keypair.generate().secretKey) });
      await page.goto(`${site.url}/lolgram`);
      const login = page.getByRole('button', { name: 'Login / Sign Up' }).first();
      await login.click();
      await until(() => page.getByRole('dialog').isVisible()).toBe(true);
      await until(() => page.getByRole('button', { name: 'Select Wallet' }).isVisible()).toBe(true);
      await expectNoViolations(page, 'auth dialog');
      await expectFocusReturns(page, login);

      await page.getByRole('tab', { name: 'Profile' }).click();
      const select = page.getByRole('button', { name: 'Select Wallet' });
      await select.click();
      const chooser = page.getByRole('dialog');
      await until(() => chooser.getByRole('button', { name: /Test Wallet/ }).isVisible()).toBe(
        true,
      );
      await expectNoViolations(page, 'wallet chooser');
      await chooser.getByRole('button', { name: /options/ }).click();
      await until(() => chooser.getByRole('button', { name: /Phantom/ }).isVisible()).toBe(true);
      await expectNoViolations(page, 'wallet chooser with more options');
      await page.screenshot({ path: screenshotPath(`a11y-wallet-chooser-${width}`) });
      await expectFocusReturns(page, select);
    });

    it('a public profile and the admin dashboard with each tab', async () => {
      const page = await open(width);
      await page.goto(`${site.url}/lolgram/${site.author}`);
      await until(() => page.getByRole('button', { name: 'Follow' }).isVisible()).toBe(true);
      await expectNoViolations(page, 'public profile');

      await page.goto(`${site.url}/admin`);
      await until(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(
        true,
      );
      for (const [tab, ready] of [
        ['Overview', page.getByText('System Health')],
        ['Content Moderation', page.getByTestId('queue-item').first()],
        ['Analytics', page.getByText('Engagement Metrics')],
        ['Reports', page.getByText('Reports by reason')],
      ] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await until(() => ready.isVisible()).toBe(true);
        await expectNoViolations(page, `admin: ${tab}`);
      }
    });
  });

  it('shows a focus ring on everything the keyboard reaches', async () => {
    const page = await open(1280);
    for (const [path, ready, least] of [
      ['/lolgram', page.getByRole('article').first(), 10],
      ['/play', page.getByTestId('tap-character'), 5],
      // The overview has no controls: the tab bar and its panel.
      ['/admin', page.getByRole('heading', { name: 'Admin Dashboard' }), 2],
    ] as const) {
      await page.goto(`${site.url}${path}`);
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
      const context = await browser.newContext({ reducedMotion });
      try {
        const page = await context.newPage();
        await page.goto(`${site.url}/leaderboard`);
        const live = page.getByRole('status').locator('span').first();
        await until(() => live.isVisible()).toBe(true);
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
});
