import type { Browser, Page } from 'playwright-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, type ServerProcess } from '../backend/test-support/process';
import {
  createScratchDatabase,
  dropRedisPrefix,
  redisAnswers,
  TEST_REDIS_URL,
  uniqueName,
} from '../backend/test-support/services';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();

/** Taps `times` times, each once the session tile shows the one before (kept or counted). */
async function tapTimes(page: Page, times: number) {
  const session = page.getByTestId('stat-Session');
  const before = Number(await session.textContent());
  for (let i = 1; i <= times; i += 1) {
    await page.getByTestId('tap-character').click();
    await until(() => session.textContent()).toBe(String(before + i));
  }
}

/**
 * A deploy: the backend serving a game page and an event screen gets SIGTERM, and a new process
 * takes its port. Both pages come back by themselves, without a reload.
 */
describe.runIf(executable && (await redisAnswers()))('a backend restarted under open pages', () => {
  let browser: Browser;
  let server: ServerProcess | undefined;
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  const contexts = contextsClosedAfterEach();
  const redisPrefix = uniqueName('tgrestart');
  let env: Record<string, string>;

  const newPage = async (width: number): Promise<Page> => {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      ...WITHOUT_SERVICE_WORKER,
    });
    contexts.push(context);
    return context.newPage();
  };

  beforeAll(async () => {
    database = await createScratchDatabase();
    env = {
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      // Both processes sign and read the same player cookies.
      SESSION_SECRET: 'restart-secret-restart-secret-restart-0123',
      MODERATION_IMAGE_CHECK: 'off',
    };
    server = await spawnServer(env);
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dropRedisPrefix(redisPrefix);
    await database?.drop();
  });

  it('resumes counting on the game page and pushing to the event screen; every tap counted once', async () => {
    const url = server!.url;
    const game = await newPage(360);
    await game.goto(`${url}/play`);
    const name = `rs_${Date.now().toString(36)}`;
    await until(() => game.getByRole('dialog').isVisible()).toBe(true);
    await game.getByLabel('Username', { exact: true }).fill(name);
    await game.getByRole('button', { name: 'Start Playing!' }).click();
    await until(() => game.getByRole('dialog').count()).toBe(0);
    await tapTimes(game, 5);

    const screen = await newPage(1280);
    await screen.goto(`${url}/leaderboard`);
    const row = screen.getByTestId('board-row').filter({ hasText: name });
    await until(() => row.textContent()).toContain('5');
    await until(() => screen.getByRole('status').textContent()).toContain('Live');
    // Counted and answered before the restart.
    await until(() => game.getByTestId('stat-Total Taps').textContent()).toBe('5');

    // The deploy: SIGTERM, the process ends (after its last flush), and both pages say so.
    expect(await server!.stop()).toBe(0);
    server = undefined;
    await until(() => game.getByTestId('game-reconnecting').isVisible()).toBe(true);
    await until(() => screen.getByRole('status').textContent()).toContain('Reconnecting');
    await shoot(game, 'restart-game-reconnecting');
    // Taps made while no server answers are kept on the counters.
    await tapTimes(game, 3);

    server = await spawnServer(env);
    expect(server.url).toBe(url);
    await until(() => game.getByTestId('game-reconnecting').count()).toBe(0);
    await until(() => screen.getByRole('status').textContent()).toContain('Live');
    await tapTimes(game, 2);
    // The event screen shows pushes again, the kept taps among them.
    await until(() => row.textContent()).toContain('10');
    await until(() => game.getByTestId('stat-Total Taps').textContent()).toBe('10');
    await shoot(screen, 'restart-event-screen');

    // The server's totals, and Postgres's once flushed: the taps made, each once.
    const res = await fetch(`${url}/api/leaderboard/users?limit=10`);
    const id = ((await res.json()) as { id: string; username: string }[]).find(
      (u) => u.username === name,
    )?.id;
    const totalTaps = async () =>
      ((await (await fetch(`${url}/api/users/${id}`)).json()) as { totalTaps: number }).totalTaps;
    await until(totalTaps).toBe(10);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await until(async () => {
        const { rows } = await client.query<{ total_taps: string }>(
          'SELECT total_taps FROM game_users WHERE username = $1',
          [name],
        );
        return Number(rows[0]?.total_taps);
      }).toBe(10);
    } finally {
      await client.end();
    }
  });
});
