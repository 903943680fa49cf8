import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { spawnServer, type ServerProcess } from '../backend/test-support/process';
import { TEST_REDIS_URL } from '../backend/test-support/services';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { photo, post, signIn, viewportOptions } from './seed';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();
const PASSWORD = 'correct horse battery';
const SECRET = 'test-secret-test-secret-test-secret-0123';

/**
 * Two backend processes on one database, one Redis and one images directory, as behind a load
 * balancer: the author's browser speaks to one, the fan's to the other.
 */
describe.runIf(executable)('notifications reach the bell live, across processes', () => {
  let dataDir: string;
  let a: TestServer;
  let b: ServerProcess;
  let browser: Browser;
  const contexts = contextsClosedAfterEach();
  const newPage = async (width: number): Promise<Page> => {
    const context = await browser.newContext({
      ...viewportOptions(width),
      ...WITHOUT_SERVICE_WORKER,
    });
    contexts.push(context);
    return context.newPage();
  };
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-notify-'));
    a = await startTestServer({ mode: 'redis', dataDir });
    b = await spawnServer({
      DATABASE_URL: a.databaseUrl ?? '',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: a.redisPrefix,
      SESSION_SECRET: SECRET,
      DATA_DIR: dataDir,
      MODERATION_IMAGE_CHECK: 'off',
    });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    if (b) await b.stop();
    await a?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("counts up the author's bell without a reload when a fan on the other process LOLs, follows and comments", async () => {
    const stamp = Date.now().toString(36);
    const [author, fan] = [`author_${stamp}`, `fan_${stamp}`];
    const made = await post(a.url, '/api/lolgram/users/create', {
      username: author,
      password: PASSWORD,
    });
    await post(a.url, '/api/lolgram/users/create', { username: fan, password: PASSWORD });
    const form = new FormData();
    form.append('caption', 'Monday again');
    form.append('userId', made.body.id);
    form.append(
      'image',
      new Blob([new Uint8Array(await photo(800, 800))], { type: 'image/png' }),
      'p.png',
    );
    const res = await fetch(`${a.url}/api/lolgram/posts`, {
      method: 'POST',
      body: form,
      headers: { cookie: made.cookie },
    });
    expect(res.status).toBe(201);
    const postId = ((await res.json()) as { id: string }).id;
    await until(async () => (await fetch(`${a.url}/api/lolgram/posts/${postId}`)).status).toBe(200);

    // The author, on a phone, on process A.
    const page = await newPage(360);
    await signIn(page, a.url, author);
    const bell = page.getByTestId('notification-bell');
    expect(await bell.getAttribute('aria-label')).toBe('Notifications');
    await page.evaluate(() => Object.assign(window, { stayed: true }));

    // The fan, on a desktop, on process B: LOLs the post, follows its author, then comments.
    const fanPage = await newPage(1280);
    await signIn(fanPage, b.url, fan);
    await fanPage.goto(`${b.url}/lolgram/p/${postId}`);
    await fanPage.getByRole('button', { name: 'LOL', exact: true }).click();
    await until(() => bell.getAttribute('aria-label')).toBe('Notifications, 1 unread');
    expect(await page.getByTestId('unread-badge').textContent()).toBe('1');
    await fanPage.goto(`${b.url}/lolgram/${author}`);
    await fanPage.getByRole('button', { name: 'Follow', exact: true }).click();
    await until(() => bell.getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await fanPage.goto(`${b.url}/lolgram/p/${postId}`);
    const box = fanPage.getByRole('textbox', { name: 'Add a comment' });
    await box.fill('so good');
    await box.press('Enter');
    // Told once the comment's automatic check has made it public.
    await until(() => bell.getAttribute('aria-label')).toBe('Notifications, 3 unread');
    expect(await page.evaluate(() => 'stayed' in window)).toBe(true);
    await shoot(page, 'notifications-bell-360');

    // Opening the list shows both, newest first, and marks them read.
    await bell.click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    const items = dialog.getByTestId('notification');
    await until(() => items.allTextContents()).toEqual([
      expect.stringContaining(`${fan} commented on your post`),
      expect.stringContaining(`${fan} started following you`),
      expect.stringContaining(`${fan} LOLed your post`),
    ]);
    await until(() => bell.getAttribute('aria-label')).toBe('Notifications');
    // Read now, and still marked as new while the list is open.
    expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-new')))).toEqual([
      'true',
      'true',
      'true',
    ]);
    await shoot(page, 'notifications-list-360');
    await expectNoViolations(page, 'the notifications list at 360 px');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, 'notifications-list-1280');
    await expectNoViolations(page, 'the notifications list at 1280 px');

    // The keyboard closes it and gives the focus back to the bell; the post's item leads to it.
    await page.keyboard.press('Escape');
    await until(() => dialog.count()).toBe(0);
    await until(() => bell.evaluate((el) => el === document.activeElement)).toBe(true);
    await bell.click();
    await items.filter({ hasText: 'LOLed your post' }).click();
    await page.waitForURL(`**/lolgram/p/${postId}`);

    // The fan has none yet: the empty list.
    await fanPage.goto(`${b.url}/lolgram`);
    await fanPage.getByTestId('notification-bell').click();
    await fanPage.getByText('No notifications yet').waitFor();
    await shoot(fanPage, 'notifications-empty-1280');
    await expectNoViolations(fanPage, 'the empty notifications list at 1280 px');
  });
});
