import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { viewportOptions } from './seed';
import { tapFast, until } from './setup';

const executable = chromiumPath();

/** Each width's player: the country they start in, the one they move to, a third to try after. */
const PLAYERS = {
  320: ['NO', 'SE', 'FI'],
  1280: ['ES', 'PT', 'GR'],
} as const;

describe.runIf(executable)('changing the country on /play', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A new player of `country` made in the welcome dialog, with `taps` taps counted. */
  async function newPlayer(width: number, country: string, taps: number): Promise<Page> {
    const context = await browser.newContext({
      ...viewportOptions(width),
      baseURL: server.url,
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
    });
    const page = await context.newPage();
    await page.goto('/play');
    const welcome = page.getByRole('dialog');
    await until(() => welcome.isVisible()).toBe(true);
    await page.getByLabel('Username', { exact: true }).fill(`c${width}_${Date.now().toString(36)}`);
    await page.getByLabel('Country').selectOption(country);
    await page.getByRole('button', { name: 'Start Playing!' }).click();
    await until(() => welcome.count()).toBe(0);
    await until(() => page.getByTestId('stat-Country').textContent()).toContain(country);
    await tapFast(page, taps);
    await until(() => page.getByTestId('stat-Total Taps').textContent()).toBe(String(taps));
    return page;
  }

  const countries = async () =>
    new Map(
      (
        (await request(server.url).get('/api/leaderboard/countries')).body as {
          country: string;
          totalPoints: number;
        }[]
      ).map((row) => [row.country, row.totalPoints]),
    );

  // 320 px stands for every phone: no style of /play's tiles or of the dialog tells it from 360 to
  // 480 px, and the narrower overflows first (layout-phones checks the screens at 360 px as well).
  it.each([320, 1280] as const)(
    'moves the player and their points to another country from the Country tile at %i px',
    async (width) => {
      const [from, to, third] = PLAYERS[width];
      const page = await newPlayer(width, from, 6);
      await until(async () => (await countries()).get(from)).toBe(6);
      const change = page.getByRole('button', { name: 'Change country' });
      const dialog = page.getByRole('dialog', { name: 'Change your country' });
      const submit = dialog.getByRole('button', { name: 'Change country' });

      // Keyboard: the tile's button opens the dialog, whose chooser has the player's country.
      await change.focus();
      await page.keyboard.press('Enter');
      await until(() => dialog.isVisible()).toBe(true);
      expect(await dialog.getByLabel('Country').inputValue()).toBe(from);
      expect(await dialog.textContent()).toContain('once every 30 days');
      await dialog.getByLabel('Country').selectOption(to);
      await expectNoViolations(page, `the country's change at ${width} px`);
      await shoot(page, `country-dialog-${width}`);
      if (width === 1280) await submit.click();
      else await submit.tap();

      await until(() => page.getByText('Country changed').first().isVisible()).toBe(true);
      await until(() => dialog.count()).toBe(0);
      await until(() => page.getByTestId('stat-Country').textContent()).toContain(to);
      // The focus is back on the control that opened the dialog.
      expect(await change.evaluate((el) => el === document.activeElement)).toBe(true);
      const board = await countries();
      expect([board.get(from) ?? 0, board.get(to)]).toEqual([0, 6]);
      // The device keeps the new country with its player (an offline visit opens with it).
      expect(
        await page.evaluate(
          () =>
            (
              JSON.parse(localStorage.getItem('tapgram.game.player')!) as {
                user: { country: string };
              }
            ).user.country,
        ),
      ).toBe(to);
      await shoot(page, `country-changed-${width}`);

      // Again within the period: the server's refusal, naming when, in the dialog.
      await change.click();
      await until(() => dialog.isVisible()).toBe(true);
      await dialog.getByLabel('Country').selectOption(third);
      await submit.click();
      const alert = dialog.getByRole('alert');
      await until(() => alert.textContent()).toMatch(
        /you can change it again on \d{4}-\d\d-\d\d at \d\d:\d\d UTC/,
      );
      await expectNoViolations(page, `the refused change at ${width} px`);
      await shoot(page, `country-refused-${width}`);

      // Offline: it needs a connection, and says so.
      await page.context().setOffline(true);
      await submit.click();
      await until(() => alert.textContent()).toContain('needs a connection');
      await page.context().setOffline(false);
      await page.keyboard.press('Escape');
      await until(() => dialog.count()).toBe(0);
      expect(await page.getByTestId('stat-Country').textContent()).toContain(to);
      await page.context().close();
    },
  );
});
