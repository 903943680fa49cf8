import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { chromiumPath, launch, screenshotPath, WITHOUT_SERVICE_WORKER } from './browser';
import { viewportOptions } from './seed';
import { until } from './setup';

const executable = chromiumPath();
const PASSWORD = 'correct horse battery';

interface Member {
  id: string;
  username: string;
  cookie: string;
}

/**
 * LOLGram on a phone, at the edges the first weeks showed: how the sign-in dialog opens for a
 * first visit, what is drawn over what at 320 and 360 px, the "Your story" bubble, and the counts
 * (one post, one follower) said as a person would.
 */
describe.runIf(executable)('LOLGram on a phone, at its edges', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    server = await startTestServer({ env: { MODERATION_IMAGE_CHECK: 'off' } });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
  });

  /**
   * A page of `width` px, signed in as `member` (their session cookie and the copy the app keeps
   * on the device, as a sign-in leaves them), or a first visit.
   */
  const open = async (width: number, member?: Member): Promise<Page> => {
    const url = new URL(server.url);
    const context = await browser.newContext({
      ...viewportOptions(width),
      baseURL: server.url,
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
      ...(member && {
        storageState: {
          cookies: member.cookie.split('; ').map((pair) => {
            const [name, ...value] = pair.split('=');
            return {
              name,
              value: value.join('='),
              domain: url.hostname,
              path: '/',
              expires: -1,
              httpOnly: true,
              secure: false,
              sameSite: 'Lax' as const,
            };
          }),
          origins: [
            {
              origin: url.origin,
              localStorage: [
                {
                  name: 'tapgram.lolgram.session',
                  value: JSON.stringify({
                    id: member.id,
                    username: member.username,
                    authMethod: 'password',
                    timestamp: Date.now(),
                  }),
                },
              ],
            },
          ],
        },
      }),
    });
    contexts.push(context);
    return context.newPage();
  };
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: screenshotPath(`lolgram-edges-${name}`), fullPage: true });

  it('opens the sign-in dialog on "Join LOLGram" for a first visit, on "Welcome Back!" after a sign-in here', async () => {
    const page = await open(360);
    await page.goto('/lolgram');
    const loginButton = page.getByRole('button', { name: 'Login / Sign Up' }).first();
    await loginButton.tap();
    const joining = page.getByRole('dialog', { name: 'Join LOLGram' });
    await until(() => joining.isVisible()).toBe(true);
    const username = `newcomer_${Date.now().toString(36)}`;
    await until(() => joining.getByRole('button', { name: 'Select Wallet' }).isVisible()).toBe(
      true,
    );
    await shot(page, 'first-visit-360');
    await joining.getByLabel('Username').fill(username);
    await joining.getByLabel('Password').fill(PASSWORD);
    await joining.getByRole('button', { name: 'Create Account' }).tap();
    await until(() => joining.count()).toBe(0);

    // Signed out again, the device remembers that someone signed in here.
    await page.getByRole('tab', { name: 'Profile' }).tap();
    await page.getByRole('button', { name: 'Log out' }).tap();
    await loginButton.tap();
    const back = page.getByRole('dialog', { name: 'Welcome Back!' });
    await until(() => back.isVisible()).toBe(true);
    await shot(page, 'returning-360');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'returning-1280');
  });
});
