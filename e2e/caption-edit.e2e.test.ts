import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { post, signIn, upload, viewportOptions } from './seed';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();
const PASSWORD = 'correct horse battery';
/** A word-list match (0.6): held at this server's hold threshold. */
const PROFANE = 'this meme is fucking hilarious';

/**
 * An author edits a caption on a phone and a desktop: they read their edit as being checked while
 * everyone else reads the caption before it, then as public once its check passes; a profane edit
 * stays theirs alone, under review.
 */
describe.runIf(executable)('an edited caption in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts = contextsClosedAfterEach();
  beforeAll(async () => {
    server = await startTestServer({
      env: { MODERATION_HOLD_THRESHOLD: '0.55', MODERATION_IMAGE_CHECK: 'off' },
    });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (width: number, username: string): Promise<Page> => {
    const context = await browser.newContext({
      ...viewportOptions(width),
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
    });
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server.url, username);
    return page;
  };
  const publicCaption = async (postId: string) =>
    (
      (await (await fetch(`${server.url}/api/lolgram/posts/${postId}`)).json()) as {
        caption: string;
      }
    ).caption;

  for (const width of [360, 1280]) {
    it(`shows the author their edit as checking, then public; a profane one under review (${width} px)`, async () => {
      const username = `editor_${width}_${Date.now().toString(36)}`;
      const made = await post(server.url, '/api/lolgram/users/create', {
        username,
        password: PASSWORD,
      });
      const author = { id: made.body.id as string, cookie: made.cookie };
      const { id } = await upload(server.url, author, 'teh typo caption');
      await until(async () => (await fetch(`${server.url}/api/lolgram/posts/${id}`)).status).toBe(
        200,
      );
      const page = await open(width, username);
      await page.goto(`${server.url}/lolgram/p/${id}`);
      const card = page.getByRole('article', { name: `Post by ${username}` });
      const editTo = async (caption: string) => {
        await card.getByRole('button', { name: 'Post options' }).click();
        await page.getByRole('menuitem', { name: 'Edit caption' }).click();
        const dialog = page.getByRole('dialog', { name: 'Edit caption' });
        await dialog.getByLabel('Caption').fill(caption);
        await dialog.getByRole('button', { name: 'Save' }).click();
        await dialog.waitFor({ state: 'hidden' });
      };
      const status = card.getByRole('status').filter({ hasText: /edit/ });

      // The check waits while another transaction holds the post.
      const holder = new pg.Client({ connectionString: server.databaseUrl });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM posts WHERE id = $1 FOR SHARE', [id]);
        await editTo('the typo caption, fixed');
        await until(() => card.getByText('the typo caption, fixed').isVisible()).toBe(true);
        await until(() => status.textContent()).toMatch(/^Checking your edit/);
        await shoot(page, `caption-edit-checking-${width}`);
        expect(await publicCaption(id)).toBe('teh typo caption');
      } finally {
        await holder.query('COMMIT');
        await holder.end();
      }
      // The check's outcome arrives live: the edit is public, and says so no more.
      await until(() => status.count()).toBe(0);
      await until(() =>
        page.getByText('Caption updated', { exact: true }).first().isVisible(),
      ).toBe(true);
      expect(await card.getByText('the typo caption, fixed').isVisible()).toBe(true);
      expect(await publicCaption(id)).toBe('the typo caption, fixed');

      await editTo(PROFANE);
      await until(() => status.textContent()).toMatch(/^Your edit is under review/);
      await until(() => page.getByText('Under review', { exact: true }).first().isVisible()).toBe(
        true,
      );
      expect(await card.getByText(PROFANE).isVisible()).toBe(true);
      expect(await publicCaption(id)).toBe('the typo caption, fixed');
      await shoot(page, `caption-edit-held-${width}`);
    });
  }
});
