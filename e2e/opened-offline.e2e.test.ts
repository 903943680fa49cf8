import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { freePort } from '../backend/test-support/process';
import { createScratchDatabase } from '../backend/test-support/services';
import { chromiumPath, launch, shoot } from './browser';
import { viewportOptions } from './seed';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();

/**
 * The game opened again while its server cannot be reached, as a phone does: the page comes from
 * the service worker, and the player, the taps and the figures from what the device kept. The
 * server stops and starts again on the same address and database.
 */
describe.runIf(executable)('the game opened while its server cannot be reached', () => {
  let browser: Browser;
  let server: TestServer | undefined;
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let dataDir: string;
  let port: number;
  let url: string;
  const contexts = contextsClosedAfterEach();
  let made = 0;

  const start = async () => {
    server = await startTestServer({
      databaseUrl: database.url,
      dataDir,
      env: { PORT: String(port) },
    });
    url = server.url;
  };
  const stop = async () => {
    await server?.stop();
    server = undefined;
  };

  beforeAll(async () => {
    database = await createScratchDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-offline-'));
    port = await freePort();
    await start();
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await stop();
    await database?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  /** The player's total taps, as the server holds them. */
  const serverTotal = async (userId: string) => {
    const res = await fetch(`${url}/api/users/${userId}`);
    return ((await res.json()) as { totalTaps: number }).totalTaps;
  };
  /** The player's rank, as the server gives it. */
  const serverRank = async (userId: string) => {
    const res = await fetch(`${url}/api/users/${userId}/rank`);
    return `#${((await res.json()) as { rank: number }).rank}`;
  };
  const tile = (page: Page, label: string) => page.getByTestId(`stat-${label}`).textContent();
  const status = (page: Page) => page.getByTestId('tap-status');
  const tap = (page: Page) => page.getByTestId('tap-character').click();

  /**
   * A first visit of a phone at 360 px, with its service worker: the player is created in the
   * welcome dialog, and the worker controls the page (it can answer the next visit offline).
   */
  async function firstVisit(): Promise<{ page: Page; userId: string }> {
    const context = await browser.newContext({
      ...viewportOptions(360),
      baseURL: url,
      reducedMotion: 'reduce',
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/play');
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });
    await until(() => page.getByRole('dialog').isVisible()).toBe(true);
    made += 1;
    const name = `away_${process.pid % 1000}_${made}`;
    await page.getByLabel('Username', { exact: true }).fill(name);
    await page.getByLabel('Country').selectOption('DE');
    await page.getByRole('button', { name: 'Start Playing!' }).click();
    await until(() => page.getByRole('dialog').count()).toBe(0);
    await until(() => tile(page, 'Country')).toContain('DE');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await until(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    // The worker's first install took the page over without reloading it under the player.
    expect(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
    ).toBe(true);
    const userId = await page.evaluate(() => localStorage.getItem('tapgram.game.userId'));
    expect(userId).toBeTruthy();
    return { page, userId: userId! };
  }

  it('keeps a player created in this visit through a reload with the server stopped, and counts the taps when it is back', async () => {
    const { page, userId } = await firstVisit();

    await stop();
    for (let i = 0; i < 8; i += 1) await tap(page);
    await until(() => status(page).getAttribute('data-waiting')).toBe('8');
    expect(await tile(page, 'Total Taps')).toBe('8');

    await page.reload();
    // The player, its country and its waiting taps, from the device; the character takes taps.
    await until(() => tile(page, 'Country')).toContain('DE');
    await until(() => status(page).getAttribute('data-state')).toBe('offline');
    await until(() => tile(page, 'Total Taps')).toBe('8');
    for (let i = 0; i < 5; i += 1) await tap(page);
    await until(() => tile(page, 'Total Taps')).toBe('13');
    expect(await status(page).getAttribute('data-waiting')).toBe('13');
    // No welcome dialog came over the game meanwhile.
    expect(await page.getByRole('dialog').count()).toBe(0);
    await shoot(page, 'game-opened-server-down-360');

    await start();
    await until(() => serverTotal(userId)).toBe(13);
    await until(() => status(page).getAttribute('data-state')).toBe('synced');
    expect(await tile(page, 'Total Taps')).toBe('13');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await shoot(page, 'game-opened-server-back-360');
  });

  it('opened offline after a sync, shows what the device last knew, as of when, never lower, and no false synced', async () => {
    const { page, userId } = await firstVisit();
    const context = page.context();
    for (let i = 0; i < 5; i += 1) await tap(page);
    await until(() => serverTotal(userId)).toBe(5);
    await context.setOffline(true);
    for (let i = 0; i < 10; i += 1) await tap(page);
    await until(() => status(page).getAttribute('data-waiting')).toBe('10');
    await context.setOffline(false);
    await until(() => status(page).getAttribute('data-state')).toBe('synced');
    expect(await serverTotal(userId)).toBe(15);
    // What the screen shows once everything is in: the player's figures and the others.
    const banner = page.getByTestId('milestone-banner');
    await until(() => banner.textContent()).toMatch(/users have reached 100K points/);
    // The rank the page shows once it has asked again after the last tap (the server's).
    const rank = await serverRank(userId);
    await until(() => tile(page, 'Rank')).toBe(rank);
    const address = page.getByTestId('contract-address');
    await until(() => address.textContent()).not.toBe('…');
    const before = {
      session: await tile(page, 'Session'),
      total: await tile(page, 'Total Taps'),
      rank: await tile(page, 'Rank'),
      milestone: await banner.textContent(),
      address: await address.textContent(),
    };
    expect(before.total).toBe('15');

    await context.setOffline(true);
    await page.reload();
    await until(() => tile(page, 'Country')).toContain('DE');
    await until(() => status(page).getAttribute('data-state')).toBe('offline');
    expect(await tile(page, 'Total Taps')).toBe(before.total);
    expect(await tile(page, 'Session')).toBe(before.session);
    expect(await tile(page, 'Rank')).toBe(before.rank);
    expect(await banner.textContent()).toBe(before.milestone);
    expect(await address.textContent()).toBe(before.address);
    const asOf = page.getByTestId('figures-as-of');
    expect(await asOf.textContent()).toMatch(/^Figures as of /);
    const when = Date.parse((await asOf.locator('time').getAttribute('datetime'))!);
    expect(Date.now() - when).toBeLessThan(10 * 60_000);
    await shoot(page, 'game-reloaded-offline-360');
    // A tap offline is counted on the screen and waits; the line still says offline, not synced.
    await tap(page);
    await until(() => status(page).getAttribute('data-waiting')).toBe('1');
    expect(await status(page).getAttribute('data-state')).toBe('offline');
    expect(await tile(page, 'Total Taps')).toBe('16');

    await context.setOffline(false);
    await until(() => status(page).getAttribute('data-state')).toBe('synced');
    await until(() => serverTotal(userId)).toBe(16);
    // Back online the counters go on from there: no jump.
    expect(await tile(page, 'Total Taps')).toBe('16');
    expect(await tile(page, 'Session')).toBe(String(Number(before.session) + 1));
    expect(await page.getByTestId('figures-as-of').count()).toBe(0);
  });
});
