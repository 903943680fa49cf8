import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { chromiumPath, launch, shoot } from './browser';
import { newAdmin, photo, post, signIn } from './seed';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();
const PASSWORD = 'correct horse battery';
// The caption check's word list scores this 0.6: at this threshold the post is held for a person.
const HOLD_PROFANITY = { MODERATION_HOLD_THRESHOLD: '0.55' };

/**
 * Two backend nodes on one database, one Redis and one images directory, as behind a load
 * balancer: the author's browser speaks to one, the admin's to the other.
 */
describe.runIf(executable)('a moderation decision reaches the author live', () => {
  let dataDir: string;
  let a: TestServer;
  let b: TestServer;
  let browser: Browser;
  const contexts = contextsClosedAfterEach();
  const newPage = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    return context.newPage();
  };
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-live-'));
    a = await startTestServer({ mode: 'redis', dataDir, env: HOLD_PROFANITY });
    b = await startTestServer({
      mode: 'redis',
      dataDir,
      databaseUrl: a.databaseUrl,
      redisPrefix: a.redisPrefix,
      env: HOLD_PROFANITY,
    });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await b?.stop();
    await a?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('shows the author, without a reload, the approval of a post the check held', async () => {
    const author = `author_${Date.now().toString(36)}`;
    const caption = `this meme is fucking hilarious ${Date.now()}`;
    await post(a.url, '/api/lolgram/users/create', { username: author, password: PASSWORD });
    const admin = await newAdmin(a);

    // The author posts on node A through the crop dialog, as anyone does.
    const page = await newPage();
    await signIn(page, a.url, author);
    await page.getByRole('button', { name: 'Create post' }).click();
    await page
      .getByRole('dialog')
      .getByTestId('post-image-input')
      .setInputFiles({ name: 'meme.png', mimeType: 'image/png', buffer: await photo(640, 400) });
    await page
      .getByRole('dialog', { name: 'Crop Your Photo' })
      .getByRole('button', { name: 'Use Photo' })
      .click();
    await page.getByLabel('Caption').fill(caption);
    await page.getByRole('button', { name: 'Share' }).click();
    await until(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('tab', { name: 'Profile' }).click();
    const tile = page
      .getByRole('list', { name: 'Posts' })
      .getByRole('listitem')
      .filter({ has: page.getByAltText(caption) });
    await until(() => tile.getByText('Under review').isVisible()).toBe(true);
    await shoot(page, 'live-held');
    // Whatever shows from here on came without a reload of this page.
    await page.evaluate(() => Object.assign(window, { stayed: true }));

    // An admin approves it on node B.
    const moderator = await newPage();
    await signIn(moderator, b.url, admin);
    await moderator.goto(`${b.url}/admin`);
    await moderator.getByRole('tab', { name: 'Content Moderation' }).click();
    const item = moderator.getByTestId('queue-item').filter({ hasText: caption });
    await item.getByRole('button', { name: 'Approve' }).click();
    await until(() => item.count()).toBe(0);

    await until(() => tile.getByText('Under review').count()).toBe(0);
    expect(await tile.getByAltText(caption).isVisible()).toBe(true);
    expect(await page.evaluate(() => 'stayed' in window)).toBe(true);
    await shoot(page, 'live-approved');
  });
});
