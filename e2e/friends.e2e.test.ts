import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { newAdmin, post, signIn, viewportOptions } from './seed';
import { tapFast, until } from './setup';

const executable = chromiumPath();

describe.runIf(executable)('friends and invite links in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer({ env: { REFERRAL_TAPS: '50' } });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const contextAt = (width: number): Promise<BrowserContext> =>
    browser.newContext({
      ...viewportOptions(width),
      baseURL: server.url,
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
    });

  /** Creates a player on /play (or the page at `path`) through the welcome dialog. */
  async function createPlayer(page: Page, name: string, path = '/play') {
    await page.goto(path);
    await until(() => page.getByRole('dialog').isVisible()).toBe(true);
    await page.getByLabel('Username', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Start Playing!' }).click();
    await until(() => page.getByRole('dialog').count()).toBe(0);
  }

  /** The friends board's rows as "rank name [relation] points" lines. */
  const boardOf = (page: Page) =>
    page
      .getByTestId('friends-board')
      .getByRole('listitem')
      .evaluateAll((items) =>
        items.map((item) =>
          Array.from(item.children, (part) => (part.textContent ?? '').trim()).join(' '),
        ),
      );

  // 320 px stands for every phone: no style of the friends card tells it from 360 to 480 px, and
  // the narrower overflows first (layout-phones checks /play at 360 px as well).
  it.each([320, 1280])(
    'an invite link opened in a new browser makes a friend, whose taps the board shows live, at %i px',
    async (width) => {
      const suffix = `${width}_${Date.now().toString(36)}`;
      const inviterName = `host_${suffix}`.slice(0, 20);
      const friendName = `pal_${suffix}`.slice(0, 20);
      const hostContext = await contextAt(width);
      await hostContext.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: server.url,
      });
      const host = await hostContext.newPage();
      await createPlayer(host, inviterName);

      const card = host.getByTestId('friends');
      const linkBox = card.getByTestId('invite-link');
      await until(() => linkBox.inputValue()).toMatch(/\/play\?ref=[a-z2-9]{8}$/);
      const link = await linkBox.inputValue();
      await until(boardOf.bind(null, host)).toEqual([`1 ${inviterName} you 0`]);

      // Copy (this browser has no Web Share), with its visible confirmation.
      await card.getByTestId('invite-copy').click();
      await until(() => card.getByTestId('invite-copy').textContent()).toBe('Copied');
      expect(await host.evaluate(() => navigator.clipboard.readText())).toBe(link);
      await card.getByRole('button', { name: 'Show QR code' }).click();
      await until(() => card.getByTestId('invite-qr').locator('svg').count()).toBe(1);
      await expectNoViolations(host, `the invite panel at ${width}px`);

      // The link in another browser: a new player, the inviter's friend.
      const guestContext = await contextAt(width);
      const guest = await guestContext.newPage();
      await createPlayer(guest, friendName, new URL(link).pathname + new URL(link).search);
      // Level on points: both first (in either order).
      await until(async () => (await boardOf(guest)).sort()).toEqual(
        [`1 ${friendName} you 0`, `1 ${inviterName} invited you 0`].sort(),
      );
      await until(async () => (await boardOf(host)).sort()).toEqual(
        [`1 ${friendName} 0`, `1 ${inviterName} you 0`].sort(),
      );
      await until(() => card.getByTestId('invitation-state').textContent()).toBe('Joined');

      // The friend taps: the host's board follows without a reload.
      await tapFast(guest, 7);
      await until(boardOf.bind(null, host)).toEqual([
        `1 ${friendName} 7`,
        `2 ${inviterName} you 0`,
      ]);
      await until(() => card.getByTestId('invitation-state').textContent()).toBe('Playing');
      await expectNoViolations(host, `the friends board at ${width}px`);
      await host.evaluate(() => window.scrollTo(0, 0));
      await shoot(host, `friends-host-${width}`, { fullPage: true });
      await shoot(guest, `friends-guest-${width}`, { fullPage: true });
      await guestContext.close();
      await hostContext.close();
    },
  );

  it('changes nothing for a player who already plays and opens an invite link', async () => {
    const context = await contextAt(360);
    const page = await context.newPage();
    const name = `old_${Date.now().toString(36)}`.slice(0, 20);
    await createPlayer(page, name);
    await until(() => page.getByTestId('invite-link').inputValue()).toMatch(/ref=/);
    const other = await contextAt(360);
    const inviter = await other.newPage();
    await createPlayer(inviter, `inv_${Date.now().toString(36)}`.slice(0, 20));
    const link = await inviter.getByTestId('invite-link').inputValue();
    await page.goto(new URL(link).pathname + new URL(link).search);
    await until(() => page.getByTestId('invite-link').inputValue()).toMatch(/ref=/);
    expect(await page.evaluate(() => localStorage.getItem('tapgram.game.ref'))).toBeNull();
    // Once loaded (it shows placeholder rows before), the board holds the player alone.
    await until(boardOf.bind(null, page)).toEqual([`1 ${name} you 0`]);
    await other.close();
    await context.close();
  });
  it.each([360, 1280])(
    "shows an operator an inviter's invitations as evidence of a farm, at %i px",
    async (width) => {
      const stamp = `${width}_${Date.now().toString(36)}`;
      const inviter = await post(server.url, '/api/users', {
        username: `farm_${stamp}`.slice(0, 20),
        country: 'GB',
      });
      const invite = await fetch(`${server.url}/api/users/${inviter.body.id}/invite`, {
        headers: { cookie: inviter.cookie },
      });
      const { code } = (await invite.json()) as { code: string };
      // Three invited players from this one address: one network.
      for (let i = 0; i < 3; i += 1) {
        await post(server.url, '/api/users', {
          username: `bot${i}_${stamp}`.slice(0, 20),
          country: 'GB',
          ref: code,
        });
      }
      const admin = await newAdmin(server);
      const context = await contextAt(width);
      const page = await context.newPage();
      await signIn(page, server.url, admin);
      await page.goto(`/admin/players/${inviter.body.id}`);
      const section = page.getByTestId('player-referrals');
      await until(() => section.textContent()).toContain('3 invited players from one network');
      expect(await section.textContent()).toContain('Invited 3: 0 bonuses paid, 0 cancelled.');
      await expectNoViolations(page, `an inviter's invitations at ${width}px`);
      await section.scrollIntoViewIfNeeded();
      await shoot(page, `friends-operator-${width}`);
      await context.close();
    },
  );
});
