import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { viewportOptions } from './seed';
import { tapFast, until } from './setup';

const executable = chromiumPath();
/** A phone and a desktop. */
const WIDTHS = [360, 1280];

/** A new player made through the welcome dialog, as a first visit does. */
async function newPlayer(page: Page, name: string) {
  await page.goto('/play');
  await until(() => page.getByRole('dialog').isVisible()).toBe(true);
  await page.getByLabel('Username', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Start Playing!' }).click();
  await until(() => page.getByRole('dialog').count()).toBe(0);
}

/**
 * A server and a browser for the suite, and pages of a given width on that server. `env` is read
 * when the server starts.
 */
function suite(env: () => Record<string, string>) {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer({ env: env() });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return async (width: number) => {
    const context = await browser.newContext({
      ...viewportOptions(width),
      baseURL: server.url,
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
    });
    return context.newPage();
  };
}

describe.runIf(executable)('a season ending in a browser', () => {
  // Seasons of 40 seconds, the first beginning as the server starts (to the second): the players
  // are in well before 20 s have gone, even on a loaded machine, so the test sees that season end
  // and the next begin, without waiting for another whole season first.
  const open = suite(() => ({
    SEASON_LENGTH: '40s',
    SEASON_START: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString(),
  }));

  it('shows the season with its countdown at 360 and 1280 px, then its end, and each player’s result in past seasons', async () => {
    // One player on a phone and one on a desktop, in the same season: the desktop's taps more.
    const players = await Promise.all(
      WIDTHS.map(async (width, i) => {
        const page = await open(width);
        const name = `season_${width}_${Date.now().toString(36)}`.slice(0, 20);
        await newPlayer(page, name);
        const panel = page.getByRole('complementary', { name: 'Leaderboard' });
        return { width, page, name, panel, taps: 6 + i, place: WIDTHS.length - i };
      }),
    );
    const boardsOf = ({ panel }: (typeof players)[number]) => panel.getByTestId('season-boards');
    for (const player of players) {
      await until(() => boardsOf(player).isVisible()).toBe(true);
      expect(
        await player.panel.getByRole('tab', { name: 'Season' }).getAttribute('aria-selected'),
      ).toBe('true');
    }
    // A season with 20 s or more left: the taps below all count in it. Otherwise the wait runs to
    // the end of the season on show (up to 20 s) and the reading of the next one after it.
    const [phone] = players;
    await expect
      .poll(() => boardsOf(phone).getByRole('timer').textContent(), { timeout: 35_000 })
      .toMatch(/^([23]\d|40)s left$/);
    const season = await boardsOf(phone).locator('p').first().textContent();
    expect(season).toMatch(/^Season \d+$/);

    // A page opened before the rollover hears of the new season live.
    for (const player of players) {
      await until(() => boardsOf(player).locator('p').first().textContent()).toBe(season);
    }
    // The desktop first: a player's own standing is read again after their own taps. Both tap
    // before the slower checks below, so that both count in the season read above.
    for (const player of [...players].reverse()) {
      await tapFast(player.page, player.taps);
      const seasonBoards = boardsOf(player);
      await until(() => seasonBoards.getByRole('timer').textContent()).toMatch(/^\d+s left$/);
      const row = seasonBoards.getByRole('listitem').filter({ hasText: player.name });
      await until(() => row.textContent()).toMatch(new RegExp(`^${player.place}.*${player.taps}$`));
      await until(() => seasonBoards.getByTestId('season-standing').textContent()).toBe(
        `You: #${player.place} with ${player.taps} points`,
      );
    }
    for (const player of players) {
      await expectNoViolations(player.page, `season boards at ${player.width}px`);
      await shoot(player.page, `season-boards-${player.width}`, { fullPage: true });
    }

    // The season ends: the next one starts empty, under its own name, live.
    for (const player of players) {
      const seasonBoards = boardsOf(player);
      await expect
        .poll(() => seasonBoards.locator('p').first().textContent(), { timeout: 55_000 })
        .not.toBe(season);
      await until(() => seasonBoards.getByText('No players yet!').isVisible()).toBe(true);
    }

    for (const { page, panel, name, taps, place, width } of players) {
      // All time keeps every point.
      await panel.getByRole('tab', { name: 'All time' }).click();
      await until(() =>
        panel.getByRole('listitem').filter({ hasText: name }).textContent(),
      ).toMatch(new RegExp(`${taps}$`));
      await panel.getByRole('tab', { name: 'Season' }).click();

      // The ended season, archived, with each player's place in it.
      await panel.getByRole('button', { name: 'Past seasons' }).click();
      const dialog = page.getByRole('dialog', { name: 'Past seasons' });
      const mine = dialog.getByRole('button', { name: new RegExp(`^${season}`) });
      // Read as the dialog opens; an archive written after that (a loaded machine) shows at the
      // next poll, 30 s on.
      await expect
        .poll(() => mine.textContent(), { timeout: 35_000 })
        .toMatch(new RegExp(`#${place} · ${taps} pts$`));
      await expectNoViolations(page, `past seasons at ${width}px`);
      await shoot(page, `past-seasons-${width}`);
      await mine.click();
      const final = page.getByRole('list', { name: `${season}: final players` });
      await until(() =>
        final
          .getByRole('listitem')
          .nth(place - 1)
          .textContent(),
      ).toBe(`${place}${name}${taps}`);
      await page.keyboard.press('Escape');
      await until(() => page.getByRole('dialog').count()).toBe(0);
      await page.context().close();
    }
  });
});

describe.runIf(executable)('the event screen in a browser', () => {
  const open = suite(() => ({}));

  it.each([360, 1920])(
    'shows the season by default on the event screen at %i px, with its countdown',
    async (width) => {
      const tapper = await open(360);
      const name = `event_${width}_${Date.now().toString(36)}`.slice(0, 20);
      await newPlayer(tapper, name);
      const screen = await open(width);
      await screen.goto('/leaderboard');
      const season = screen.getByTestId('event-season');
      await until(() => season.textContent()).toMatch(/^Season \d+·\d.* left$/);
      await until(() => screen.getByRole('status').textContent()).toContain('Live');
      await tapFast(tapper, 4);
      const row = screen.getByTestId('board-row').filter({ hasText: name });
      await until(() => row.textContent()).toContain('4');
      await expectNoViolations(screen, `event screen at ${width}px`);
      await shoot(screen, `event-season-${width}`);
      // `?board=all` shows every point ever instead.
      await screen.goto('/leaderboard?board=all');
      await until(() => screen.getByText('All time').isVisible()).toBe(true);
      await until(() => screen.getByTestId('board-row').filter({ hasText: name }).count()).toBe(1);
      await tapper.context().close();
      await screen.context().close();
    },
  );
});
