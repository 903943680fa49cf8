import { streakMessages } from '@tapgram/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { viewportOptions } from './seed';
import { tapFast, until } from './setup';

const executable = chromiumPath();
const DAILY_TAPS = 5;

describe.runIf(executable)('the daily streak in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer({ env: { STREAK_DAILY_TAPS: String(DAILY_TAPS) } });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each([360, 1280])(
    "shows today's progress, claims the bonus once at %i px, and refuses it in a second tab",
    async (width) => {
      const context = await browser.newContext({
        ...viewportOptions(width),
        baseURL: server.url,
        reducedMotion: 'reduce',
        ...WITHOUT_SERVICE_WORKER,
      });
      const page = await context.newPage();
      await page.goto('/play');
      await until(() => page.getByRole('dialog').isVisible()).toBe(true);
      const name = `streak_${width}_${Date.now().toString(36)}`.slice(0, 20);
      await page.getByLabel('Username', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Start Playing!' }).click();
      await until(() => page.getByRole('dialog').count()).toBe(0);

      const card = page.getByTestId('streak');
      const claim = card.getByTestId('streak-claim');
      await until(() => card.getByTestId('streak-today').textContent()).toBe(
        `0 / ${DAILY_TAPS} taps`,
      );
      expect(await claim.isDisabled()).toBe(true);
      expect(await card.getByTestId('streak-days').textContent()).toBe('0 days');

      await tapFast(page, DAILY_TAPS);
      await until(() => card.getByTestId('streak-today').textContent()).toBe(
        `${DAILY_TAPS} / ${DAILY_TAPS} taps`,
      );
      await until(() => card.getByTestId('streak-days').textContent()).toBe('1 day');
      await until(() => claim.isEnabled()).toBe(true);
      expect(await claim.textContent()).toBe('Claim +10');
      await expectNoViolations(page, `streak ready to claim at ${width}px`);
      await shoot(page, `streak-ready-${width}`, { fullPage: true });

      // A second tab of the same player, open before the claim.
      const other = await context.newPage();
      await other.goto('/play');
      const otherClaim = other.getByTestId('streak').getByTestId('streak-claim');
      await until(() => otherClaim.isEnabled()).toBe(true);

      await claim.click();
      await until(() => card.getByTestId('streak-claimed').textContent()).toBe('+10 claimed today');
      await card.getByText('Your bonuses').click();
      await until(() => card.getByTestId('streak-history').getByRole('listitem').count()).toBe(1);
      expect(await card.getByTestId('streak-history').textContent()).toMatch(/1-day streak\+10$/);
      await expectNoViolations(page, `streak claimed at ${width}px`);
      // The full page from its top: the fixed header in its place.
      await page.evaluate(() => window.scrollTo(0, 0));
      await shoot(page, `streak-claimed-${width}`, { fullPage: true });

      // The other tab's claim is refused with the server's reason, and it then shows the claim.
      await otherClaim.click();
      await until(() => other.getByTestId('streak').getByRole('alert').textContent()).toBe(
        streakMessages.alreadyClaimed,
      );
      await until(() =>
        other.getByTestId('streak').getByTestId('streak-claimed').textContent(),
      ).toBe('+10 claimed today');

      // A reload shows the claim, once: the bonus is in the player's points, not their taps.
      await page.reload();
      await until(() => card.getByTestId('streak-claimed').textContent()).toBe('+10 claimed today');
      await until(() => page.getByTestId('stat-Total Taps').textContent()).toBe(String(DAILY_TAPS));
      const player = await fetchPlayer(page);
      expect(player).toMatchObject({ totalTaps: DAILY_TAPS, totalPoints: DAILY_TAPS + 10 });
      await context.close();
    },
  );
});

/** The player this page plays as, as the server holds them. */
async function fetchPlayer(page: Page) {
  return page.evaluate(async () => {
    const res = await fetch(`/api/users/${localStorage.getItem('tapgram.game.userId')}`);
    return (await res.json()) as { totalTaps: number; totalPoints: number };
  });
}
