import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { connectGame, sendTaps } from '../backend/test/game/socket-client';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { newAdmin, post, signIn, viewportOptions } from './seed';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();

/** The signals' clock: a morning, so that every batch falls on one day whatever the real hour. */
const START = Date.UTC(2026, 10, 23, 8, 0, 0);
const SCRIPTED = 'metronome_bot';
const CADENCE_REASON =
  'tapped at an even cadence today: 30 batches varying 0.0% in size and 0.0% in interval';
const FREEZE_REASON = 'Ten taps every second for thirty seconds, to the millisecond';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

interface Player {
  username: string;
  userId: string;
  sessionId: string;
  cookie: string;
}

/** People: batch sizes and the gaps between them vary. The first outscores the script. */
const HUMANS = [
  {
    username: 'big_hitter',
    country: 'GB',
    sizes: [
      16, 12, 15, 9, 14, 11, 16, 13, 10, 15, 12, 16, 14, 9, 15, 13, 11, 16, 12, 14, 15, 13, 17, 14,
      16, 12,
    ],
    gapsMs: [900, 1400, 1100, 2000, 1250, 1700],
  },
  {
    username: 'casual_cat',
    country: 'FR',
    sizes: [3, 7, 5, 9, 2, 6, 8, 4, 6, 3, 7, 5],
    gapsMs: [800, 1500, 1100, 2300, 950, 1700],
  },
  {
    username: 'weekend_wu',
    country: 'JP',
    sizes: [5, 2, 8, 4, 6, 1, 9, 3, 7, 4],
    gapsMs: [1200, 3100, 900, 2600, 1500],
  },
];

/** A player made over the API, as the game screen makes one, with a session. */
async function createPlayer(url: string, username: string, country: string): Promise<Player> {
  const created = await post(url, '/api/users', { username, country });
  const user = { id: created.body.id, cookie: created.cookie };
  const session = (await post(url, '/api/sessions', { userId: user.id }, user.cookie)).body;
  return { username, userId: user.id, sessionId: session.id, cookie: user.cookie };
}

/**
 * A player made by the game's API from inside `context`, which keeps its cookie and stored ids, so
 * that /play in that context is this player's game screen.
 */
async function createPlayerIn(context: BrowserContext, url: string, username: string) {
  const page = await context.newPage();
  try {
    await page.goto(url);
    const ids = await page.evaluate(async (name) => {
      const post = async (path: string, body: unknown) => {
        const res = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`${path}: ${res.status}`);
        return ((await res.json()) as { id: string }).id;
      };
      const userId = await post('/api/users', { username: name, country: 'NL' });
      const sessionId = await post('/api/sessions', { userId });
      localStorage.setItem('tapgram.game.userId', userId);
      localStorage.setItem('tapgram.game.sessionId', sessionId);
      return { userId, sessionId };
    }, username);
    const cookies = await context.cookies(url);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    return { username, ...ids, cookie };
  } finally {
    await page.close();
  }
}

/** The first player of the Players tab's list, in whichever layout (table or cards) shows. */
const firstListed = (page: Page): Locator =>
  page
    .getByRole('tabpanel', { name: 'Players' })
    .getByRole('link', { name: /^@/ })
    .filter({ visible: true })
    .first();

describe.runIf(executable)('game operators in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clock = START;
  const contexts = contextsClosedAfterEach();

  /** Sends these batches over the game channel, the signals' clock moved by each gap first. */
  async function play(player: Player, sizes: number[], gapsMs: number[]) {
    const socket = await connectGame(server.url, player.cookie);
    try {
      for (const [i, size] of sizes.entries()) {
        clock += gapsMs[i % gapsMs.length];
        const ack = await sendTaps(socket, player.sessionId, size, i + 1);
        expect(ack, `${player.username}'s batch ${i + 1}`).toMatchObject({ ok: true });
      }
    } finally {
      socket.disconnect();
    }
  }

  /** A context of `width` on the site, closed after the suite; signed in when given a state. */
  async function newContext(width: number, storageState?: StorageState) {
    const context = await browser.newContext({
      ...viewportOptions(width),
      baseURL: server.url,
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
      ...(storageState ? { storageState } : {}),
    });
    contexts.push(context);
    return context;
  }

  beforeAll(async () => {
    server = await startTestServer({
      now: () => clock,
      env: {
        // Enough batches to judge a cadence, well within what a test sends.
        SUSPICION_MIN_BATCHES: '10',
        // Every player here comes from this machine's address: the network rule stays out.
        SUSPICION_NETWORK_PLAYERS: '100',
        // The tap rate cap counts real time, and the batches below go out at once: room for all.
        TAP_BURST: '1000',
      },
    });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('finds the scripted player at the top of the suspicion list, freezes it, and sees it leave /leaderboard', async () => {
    const botContext = await newContext(360);
    const bot = await createPlayerIn(botContext, server.url, SCRIPTED);
    // Ten taps every second, exactly, thirty times.
    await play(bot, Array<number>(30).fill(10), [1000]);
    for (const human of HUMANS) {
      await play(
        await createPlayer(server.url, human.username, human.country),
        human.sizes,
        human.gapsMs,
      );
    }

    // Before the freeze, the event screen lists the script.
    const screen = await (await newContext(1280)).newPage();
    await screen.goto('/leaderboard');
    const botRow = screen.getByTestId('board-row').filter({ hasText: SCRIPTED });
    await until(() => botRow.isVisible()).toBe(true);
    await until(() => botRow.textContent()).toContain('300');
    await until(() => screen.getByText('Netherlands').isVisible()).toBe(true);

    const admin = await newAdmin(server);
    const desk = await (await newContext(1280)).newPage();
    await signIn(desk, server.url, admin);
    await desk.goto('/admin');
    await until(() => desk.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(
      true,
    );
    await desk.getByRole('tab', { name: 'Players' }).click();
    await until(() => firstListed(desk).isVisible()).toBe(true);

    // By points a person leads; by suspicion the script does, with its reason.
    const sort = desk.getByLabel('Sort by');
    await sort.selectOption('points');
    await until(() => firstListed(desk).textContent()).toBe('@big_hitter');
    await sort.selectOption('suspicion');
    await until(() => firstListed(desk).textContent()).toBe(`@${SCRIPTED}`);
    const botListed = desk.getByRole('row').filter({ hasText: `@${SCRIPTED}` });
    await until(() => botListed.getByText(CADENCE_REASON).isVisible()).toBe(true);
    expect(await botListed.getByTitle('Suspicion 40 of 100').count()).toBe(1);
    // People show no reason.
    const person = desk.getByRole('row').filter({ hasText: '@casual_cat' });
    expect(await person.getByText('Nothing unusual seen.').isVisible()).toBe(true);
    // The rows are the answer to this sort, not the last one's kept on show meanwhile.
    const busy = desk.getByRole('tabpanel', { name: 'Players' }).locator('[aria-busy="true"]');
    await until(() => busy.count()).toBe(0);
    await shoot(desk, 'operators-players-1280', { fullPage: true });

    // The player's page: the reason, and the charts with their text alternative.
    await firstListed(desk).click();
    await until(() => new URL(desk.url()).pathname).toBe(`/admin/players/${bot.userId}`);
    await until(() =>
      desk.getByRole('heading', { level: 1, name: `@${SCRIPTED}` }).isVisible(),
    ).toBe(true);
    await until(() => desk.getByText(CADENCE_REASON).isVisible()).toBe(true);
    await expectCharts(desk);
    await shoot(desk, 'operators-player-1280', { fullPage: true });
    await phoneViews(await desk.context().storageState(), bot.userId);

    // Freeze, with a reason, through the dialog.
    const freeze = desk.getByRole('button', { name: 'Freeze', exact: true });
    await freeze.click();
    const dialog = desk.getByRole('dialog', { name: `Freeze @${SCRIPTED}?` });
    await until(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Freeze player' }).click();
    await until(() => dialog.getByRole('alert').textContent()).toBe('Give a reason');
    await dialog.getByLabel('Reason').fill(FREEZE_REASON);
    await shoot(desk, 'operators-freeze-dialog-1280');
    await dialog.getByRole('button', { name: 'Freeze player' }).click();
    await until(() => dialog.count()).toBe(0);
    const note = desk.getByTestId('frozen-note');
    await until(() => note.textContent()).toMatch(
      new RegExp(`^Frozen since .+: ${FREEZE_REASON}$`),
    );
    await until(() => desk.getByRole('button', { name: 'Unfreeze' }).isVisible()).toBe(true);
    await until(() =>
      desk.getByText(`@${admin} froze this player: ${FREEZE_REASON}`).isVisible(),
    ).toBe(true);
    await shoot(desk, 'operators-player-frozen-1280', { fullPage: true });

    // The event screen, loaded again, lists the people and no longer the script.
    await screen.reload();
    const hitter = screen.getByTestId('board-row').filter({ hasText: 'big_hitter' });
    await until(() => hitter.isVisible()).toBe(true);
    await until(() =>
      screen.getByTestId('board-row').filter({ hasText: 'weekend_wu' }).isVisible(),
    ).toBe(true);
    expect(await botRow.count()).toBe(0);
    // Nor does its country's total (only the script played from there).
    expect(await screen.getByText('Netherlands').count()).toBe(0);
    await shoot(screen, 'operators-leaderboard-after-freeze');

    // The frozen player's own game screen says so as it loads, before any tap.
    const game = await botContext.newPage();
    await game.goto('/play');
    await until(() => game.getByTestId('stat-Total Taps').textContent()).toBe('300');
    const frozen = game.getByTestId('game-frozen');
    await until(() => frozen.isVisible()).toBe(true);
    expect(await frozen.getByText('This player is frozen').isVisible()).toBe(true);
    expect(await game.getByTestId('stat-Rank').textContent()).toBe('—');
    await shoot(game, 'operators-frozen-play-360', { fullPage: true });
  });

  // 320 px stands for every phone: no style of a player's page tells it from 360 to 480 px, and the
  // narrower overflows first (layout-phones checks the page at 360 px as well).
  it.each([320, 1280])(
    "shows an inviter's invited players tapping to one script's rhythm, explained, at %i px",
    async (width) => {
      const stamp = `${width}${Date.now().toString(36).slice(-5)}`;
      const inviter = await createPlayer(server.url, `inviter_${stamp}`, 'GB');
      const invite = await fetch(`${server.url}/api/users/${inviter.userId}/invite`, {
        headers: { cookie: inviter.cookie },
      });
      const { code } = (await invite.json()) as { code: string };
      const invited = async (username: string) => {
        const created = await post(server.url, '/api/users', {
          username,
          country: 'GB',
          ref: code,
        });
        const session = await post(
          server.url,
          '/api/sessions',
          { userId: created.body.id },
          created.cookie,
        );
        return {
          username,
          userId: created.body.id,
          sessionId: session.body.id,
          cookie: created.cookie,
        };
      };
      // Three accounts driven by one script: five taps every 1.5 s, one after another.
      const bots: Player[] = [];
      for (let i = 0; i < 3; i += 1) {
        const bot = await invited(`drone${i}_${stamp}`);
        await play(bot, Array<number>(12).fill(5), [1500]);
        bots.push(bot);
      }
      // A person the same inviter brought plays as people do.
      const friend = await invited(`pal_${stamp}`);
      await play(friend, HUMANS[1].sizes, HUMANS[1].gapsMs);
      // The signals reach Postgres at the next write of the signal buffer.
      await until(async () => {
        const { rows } = await server.db.pool.query(
          'SELECT count(*)::int AS n FROM game_player_days WHERE user_id = ANY($1) AND batches >= 12',
          [[...bots, friend].map((p) => p.userId)],
        );
        return rows[0].n;
      }).toBe(4);

      const admin = await newAdmin(server);
      const page = await (await newContext(width)).newPage();
      await signIn(page, server.url, admin);
      await page.goto(`/admin/players/${inviter.userId}`);
      const section = page.getByTestId('player-referrals');
      await until(() => section.textContent()).toContain(
        '3 invited players tapped to the same machine-like rhythm: a batch every 1.50 s, ' +
          'the intervals varying at most 0.0% (people vary far more)',
      );
      const timing = section.getByTestId('shared-timing');
      expect(await timing.getByRole('heading').allTextContents()).toEqual([
        'Same machine-like rhythm: 3 invited players',
      ]);
      const rows = await timing.getByRole('listitem').allTextContents();
      expect(rows).toEqual(
        bots.map((b) => `@${b.username} a batch every 1.50 s, varying 0.0%, 12 batches on Nov 23`),
      );
      // The person is not among them; each row leads to the invited player's page.
      expect(rows.join()).not.toContain(friend.username);
      await expectNoViolations(page, `shared timing evidence at ${width}px`);
      await timing.scrollIntoViewIfNeeded();
      await shoot(page, `operators-shared-timing-${width}`);
      await timing.getByRole('link', { name: `@${bots[0].username}` }).click();
      await until(() => new URL(page.url()).pathname).toBe(`/admin/players/${bots[0].userId}`);
    },
  );

  /** The three charts drawn, and every figure said in words: their labels and the table. */
  async function expectCharts(page: Page) {
    await until(() => page.locator('figure canvas').count()).toBe(3);
    const taps = page.getByRole('img', {
      name: /^Taps per day over 7 days: 300 counted, 0 refused;/,
    });
    expect(await taps.count()).toBe(1);
    const regularity = page.getByRole('img', {
      name: /lowest batch size variation 0\.00, lowest interval variation 0\.00\.$/,
    });
    expect(await regularity.count()).toBe(1);
    const table = page.getByRole('table', { name: 'Signals per day, oldest first' });
    const today = table.getByRole('row', { name: /^Nov 23/ });
    expect(await today.getByRole('cell').allTextContents()).toEqual([
      '300',
      '0',
      '30',
      '29 s',
      '29 s',
      '0.00',
      '0.00',
    ]);
  }

  /** The Players tab and the player's page on a phone, for the screenshots. */
  async function phoneViews(state: StorageState, id: string) {
    const page = await (await newContext(360, state)).newPage();
    await page.goto('/admin?tab=players');
    await until(() => firstListed(page).textContent()).toBe(`@${SCRIPTED}`);
    // The table is in the page too, hidden on a phone: the card's reason is the one in sight.
    const reason = page.getByText(CADENCE_REASON).filter({ visible: true });
    await until(() => reason.count()).toBe(1);
    await shoot(page, 'operators-players-360', { fullPage: true });
    await page.goto(`/admin/players/${id}`);
    await until(() => page.getByText(CADENCE_REASON).isVisible()).toBe(true);
    await expectCharts(page);
    await shoot(page, 'operators-player-360', { fullPage: true });
  }
});
