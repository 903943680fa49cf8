import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';

const executable = chromiumPath();

/** Taps `times` times, each tap once the session tile shows the one before. */
async function tapTimes(page: Page, times: number) {
  const character = page.getByTestId('tap-character');
  const session = page.getByTestId('stat-Session');
  const before = Number(await session.textContent());
  for (let i = 1; i <= times; i += 1) {
    await character.click();
    await expect.poll(() => session.textContent(), { timeout: 10_000 }).toBe(String(before + i));
  }
}

describe.runIf(executable)('the game in a browser', () => {
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

  it('creates a player, taps, and sees the tiles, the panel and the event screen change', async () => {
    const player = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      ...WITHOUT_SERVICE_WORKER,
    });
    const page = await player.newPage();
    await page.goto(`${server.url}/play`);

    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // Nothing dismisses it: not Escape (twice: a browser lets a second one close a <dialog> that
    // refused the first), nor a click beside it; the form below is still there to fill in.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 450);
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.getByLabel('Username', { exact: true }).fill('ab');
    await page.getByRole('button', { name: 'Start Playing!' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Username must be at least 3 characters long');

    const name = `e2e_${Date.now().toString(36)}`;
    await page.getByLabel('Username', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Start Playing!' }).click();
    // first(): while a toast opens, Radix also announces its text to screen readers.
    const welcome = page.getByText(`Welcome, ${name}!`);
    await expect.poll(() => welcome.first().isVisible()).toBe(true);
    await expect.poll(() => dialog.count()).toBe(0);

    await tapTimes(page, 10);
    await expect.poll(() => page.getByTestId('stat-Session').textContent()).toBe('10');
    await expect.poll(() => page.getByTestId('stat-Total Taps').textContent()).toBe('10');
    await expect.poll(() => page.getByTestId('stat-Rank').textContent()).toBe('#1');
    const panel = page.getByRole('complementary', { name: 'Leaderboard' });
    await expect.poll(() => panel.getByText(name).isVisible()).toBe(true);

    // The keyboard path: Space on the focused character taps too.
    await page.getByTestId('tap-character').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByTestId('stat-Session').textContent()).toBe('11');
    await shoot(page, 'game-after-taps', { fullPage: true });

    // An event screen in another browser sees the next taps without reloading.
    const screen = await (
      await browser.newContext({
        viewport: { width: 1920, height: 1080 },
        ...WITHOUT_SERVICE_WORKER,
      })
    ).newPage();
    await screen.goto(`${server.url}/leaderboard`);
    const row = screen.getByTestId('board-row').filter({ hasText: name });
    await expect.poll(() => row.textContent()).toContain('11');
    await expect.poll(() => screen.getByRole('status').textContent()).toContain('Live');
    await tapTimes(page, 4);
    await expect.poll(() => row.textContent()).toContain('15');
    await shoot(screen, 'event-leaderboard');

    // A reload keeps the player: the stored id loads it and opens a new session.
    await page.reload();
    await expect.poll(() => page.getByTestId('stat-Total Taps').textContent()).toBe('15');
    await expect.poll(() => page.getByTestId('stat-Session').textContent()).toBe('0');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('shows the landing page and the 404 page', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await expect
      .poll(() => page.getByRole('link', { name: 'Play the game' }).isVisible())
      .toBe(true);
    await shoot(page, 'landing');
    await page.goto(`${server.url}/no/such/page`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible())
      .toBe(true);
  });
});
