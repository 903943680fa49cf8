import { Keypair } from '@solana/web3.js';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { testWalletScript } from '../frontend/test/wallet/test-wallet';
import { chromiumPath, screenshotPath, WITHOUT_SERVICE_WORKER } from './browser';
import { expectNoViolations } from './axe';
import { photo } from './seed';
import { adminTabs, memberPlaying, offlineAndOutOfEnergy, seededSuite, until } from './setup';

const executable = chromiumPath();
/** A phone and a desktop. */
const WIDTHS = [360, 1280];

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
  const suite = seededSuite(executable!);
  const { open } = suite;

  describe.each(WIDTHS)('at %i px wide', (width) => {
    it('the landing page, the 404 page and the event leaderboard', async () => {
      const page = await open(width, 'visitor');
      await page.goto('/');
      await until(() => page.getByRole('link', { name: 'Play the game' }).isVisible()).toBe(true);
      await expectNoViolations(page, 'landing');
      await page.goto('/no/such/page');
      await until(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).toBe(
        true,
      );
      await expectNoViolations(page, '404');
      await page.goto('/leaderboard');
      await until(() => page.getByTestId('board-row').first().isVisible()).toBe(true);
      await expectNoViolations(page, 'leaderboard');
    });

    it('the game, with and without its welcome dialog', async () => {
      let page = await open(width, 'visitor');
      await page.goto('/play');
      await until(() => page.getByRole('dialog').isVisible()).toBe(true);
      await expectNoViolations(page, 'welcome dialog');
      await page.context().close();

      page = await open(width);
      await page.goto('/play');
      await memberPlaying(page);
      await until(() => page.getByTestId('stat-Rank').textContent()).toMatch(/^#\d+$/);
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      await expectNoViolations(page, 'game');

      // The status line of taps waiting offline, and the energy gauge, empty.
      const stopTapping = await offlineAndOutOfEnergy(page);
      await expectNoViolations(page, 'game offline, out of energy');
      await stopTapping();
    });

    it('LOLGram: each tab, and the edit profile, report and notifications dialogs', async () => {
      const page = await open(width);
      await page.goto('/lolgram');
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

      const bell = page.getByTestId('notification-bell');
      await bell.click();
      const notifications = page.getByRole('dialog', { name: 'Notifications' });
      await until(() => notifications.getByRole('status').count()).toBe(0);
      await expectNoViolations(page, 'notifications list');
      await expectFocusReturns(page, bell);
    });

    it('LOLGram: the Saved and Blocked tabs, the author’s menu, and the caption, delete and block dialogs', async () => {
      const page = await open(width);
      const { ownPost, blocked, author } = suite.site;
      await page.goto('/lolgram?tab=profile');
      await page.getByRole('tab', { name: 'Saved' }).click();
      const saved = page.getByRole('tabpanel', { name: 'Saved' });
      await until(() => saved.getByRole('link').first().isVisible()).toBe(true);
      await expectNoViolations(page, 'saved tab');
      await page.getByRole('tab', { name: 'Blocked' }).click();
      await until(() => page.getByRole('button', { name: `Unblock @${blocked}` }).isVisible()).toBe(
        true,
      );
      await expectNoViolations(page, 'blocked tab');

      await page.goto(`/lolgram/p/${ownPost.id}`);
      const options = page.getByRole('button', { name: 'Post options' });
      await until(() => options.isVisible()).toBe(true);
      await options.click();
      await until(() => page.getByRole('menu').isVisible()).toBe(true);
      await expectNoViolations(page, 'the author’s menu');
      for (const [item, title] of [
        ['Edit caption', 'Edit caption'],
        ['Delete', 'Delete this post?'],
      ] as const) {
        if (!(await page.getByRole('menu').isVisible())) await options.click();
        await page.getByRole('menuitem', { name: item }).click();
        await until(() => page.getByRole('dialog', { name: title }).isVisible()).toBe(true);
        await expectNoViolations(page, `${title} dialog`);
        await expectFocusReturns(page, options);
      }

      await page.goto(`/lolgram/${author}`);
      const profileOptions = page.getByRole('button', { name: 'Profile options' });
      await profileOptions.click();
      await page.getByRole('menuitem', { name: `Block @${author}` }).click();
      await until(() => page.getByRole('dialog', { name: `Block @${author}?` }).isVisible()).toBe(
        true,
      );
      await expectNoViolations(page, 'block dialog');
      await expectFocusReturns(page, profileOptions);
    });

    it('LOLGram: the create post and crop dialogs', async () => {
      const page = await open(width);
      await page.goto('/lolgram');
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
      await page.goto('/lolgram');
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

    it('LOLGram: a wallet user’s profile with the wallet connected, and its menu', async () => {
      const keypair = Keypair.generate();
      const address = keypair.publicKey.toBase58();
      const page = await open(width, 'visitor');
      await page.addInitScript({ content: testWalletScript(keypair.secretKey, { signIn: true }) });
      await page.goto('/lolgram?tab=profile');
      await page.getByRole('button', { name: 'Select Wallet' }).click();
      await page.getByRole('button', { name: /Test Wallet/ }).click();
      const onProfile = page.getByTestId('profile-wallet');
      const wallet = onProfile.getByRole('button', { name: `${address.slice(0, 4)}..` });
      await until(() => wallet.isVisible()).toBe(true);
      await until(() => page.getByRole('dialog').count()).toBe(0);
      await expectNoViolations(page, 'wallet connected');
      await wallet.click();
      await until(() => onProfile.getByRole('menuitem', { name: 'Disconnect' }).isVisible()).toBe(
        true,
      );
      await expectNoViolations(page, 'wallet menu');
    });

    it('a public profile, a post opened from its grid, and the admin dashboard with each tab', async () => {
      const page = await open(width);
      const { author, post } = suite.site;
      await page.goto(`/lolgram/${author}`);
      await until(() => page.getByRole('button', { name: 'Follow' }).isVisible()).toBe(true);
      await expectNoViolations(page, 'public profile');

      await page.getByRole('link', { name: post.caption }).click();
      await until(() => new URL(page.url()).pathname).toBe(`/lolgram/p/${post.id}`);
      const card = page.getByRole('article', { name: `Post by ${author}` });
      await until(() => card.getByRole('button', { name: 'LOL' }).isVisible()).toBe(true);
      await until(() => card.getByText(post.caption).isVisible()).toBe(true);
      await expectNoViolations(page, 'post page');

      await page.goto('/admin');
      await until(() => page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(
        true,
      );
      for (const [tab, ready] of adminTabs(page)) {
        await page.getByRole('tab', { name: tab }).click();
        await until(() => ready.isVisible()).toBe(true);
        await expectNoViolations(page, `admin: ${tab}`);
      }
    });

    it("a game player's page and its freeze dialog, with and without an error", async () => {
      const page = await open(width);
      const { player } = suite.site;
      await page.goto(`/admin/players/${player.id}`);
      await until(() =>
        page.getByRole('heading', { level: 1, name: `@${player.username}` }).isVisible(),
      ).toBe(true);
      await until(() => page.locator('figure canvas').count()).toBe(3);
      await expectNoViolations(page, 'player page');

      const freeze = page.getByRole('button', { name: 'Freeze', exact: true });
      await freeze.click();
      const dialog = page.getByRole('dialog', { name: `Freeze @${player.username}?` });
      await until(() => dialog.isVisible()).toBe(true);
      await expectNoViolations(page, 'freeze dialog');
      await dialog.getByRole('button', { name: 'Freeze player' }).click();
      await until(() => dialog.getByRole('alert').textContent()).toBe('Give a reason');
      await expectNoViolations(page, 'freeze dialog with an error');
      await expectFocusReturns(page, freeze);
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
      const context = await suite.browser.newContext({ reducedMotion, ...WITHOUT_SERVICE_WORKER });
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
});
