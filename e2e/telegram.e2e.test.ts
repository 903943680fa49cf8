import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import {
  makeTelegramUser,
  signInitData,
  telegramEnv,
  type TelegramUser,
} from '../backend/test-support/telegram';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { viewportOptions } from './seed';
import { tapFast, until } from './setup';

const executable = chromiumPath();

/** The SDK's own build for a page without a bundler: it carries `mockTelegramEnv`. */
const SDK_SCRIPT = readFileSync(
  new URL('../node_modules/@telegram-apps/sdk/dist/index.iife.js', import.meta.url),
  'utf8',
);

/**
 * Telegram's side of the bridge, mocked with the SDK's `mockTelegramEnv`: every method the page
 * calls is recorded (in the tab's storage, so that a reload keeps them) and the requests that
 * Telegram answers are answered.
 */
const MOCK_SCRIPT = `(() => {
  const { mockTelegramEnv, emitEvent } = window.telegramApps.sdk;
  const answers = {
    web_app_request_viewport: ['viewport_changed', { height: innerHeight, width: innerWidth, is_expanded: true, is_state_stable: true }],
    web_app_request_safe_area: ['safe_area_changed', { top: 24, bottom: 16, left: 0, right: 0 }],
    web_app_request_content_safe_area: ['content_safe_area_changed', { top: 0, bottom: 0, left: 0, right: 0 }],
    web_app_request_theme: ['theme_changed', { theme_params: { bg_color: '#17212b' } }],
  };
  mockTelegramEnv({
    onEvent: ([name, params]) => {
      const calls = JSON.parse(sessionStorage.getItem('test.telegram.calls') ?? '[]');
      calls.push([name, params ?? null]);
      sessionStorage.setItem('test.telegram.calls', JSON.stringify(calls));
      const answer = answers[name];
      if (answer) setTimeout(() => emitEvent(answer[0], answer[1]), 0);
    },
  });
})();`;

const THEME = JSON.stringify({
  bg_color: '#17212b',
  text_color: '#f5f5f5',
  hint_color: '#708499',
  link_color: '#6ab3f3',
  button_color: '#5288c1',
  button_text_color: '#ffffff',
  secondary_bg_color: '#232e3c',
});

/** The hash Telegram opens the Mini App with: the signed init data and the client's details. */
function launchHash(initData: string): string {
  const params = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: THEME,
  });
  return `#${params.toString()}`;
}

type Call = [name: string, params: Record<string, unknown> | null];

const calls = (page: Page): Promise<Call[]> =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('test.telegram.calls') ?? '[]') as Call[]);

/** The parameters of the last call of `name` the page made, or undefined. */
async function lastCall(
  page: Page,
  name: string,
): Promise<Record<string, unknown> | null | undefined> {
  const made = (await calls(page)).filter(([method]) => method === name);
  return made.at(-1)?.[1];
}

describe.runIf(executable)('TapGram as a Telegram Mini App', () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startTestServer({ env: telegramEnv() });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function telegramContext(width = 360): Promise<BrowserContext> {
    const context = await browser.newContext({
      ...viewportOptions(width),
      baseURL: server.url,
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
    });
    await context.addInitScript({ content: SDK_SCRIPT });
    await context.addInitScript({ content: MOCK_SCRIPT });
    return context;
  }

  /** The player the server holds for `id`, as the API answers it. */
  const playerTotals = async (id: string) =>
    ((await request(server.url).get(`/api/users/${id}`)).body as { totalTaps: number }).totalTaps;

  const storedPlayerId = (page: Page) =>
    page.evaluate(() => localStorage.getItem('tapgram.game.userId'));

  it('asks a first launch only for a country, then plays, keeps the player across reloads and sets up the shell', async () => {
    const user: TelegramUser = makeTelegramUser({ username: `tess${Date.now().toString(36)}` });
    const context = await telegramContext();
    const page = await context.newPage();
    await page.goto(`/play${launchHash(signInitData(user))}`);

    const dialog = page.getByRole('dialog');
    await until(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('heading').textContent()).toBe(
      `Welcome to TapGram, ${user.username}!`,
    );
    // The name is Telegram's: no username to type.
    expect(await page.getByLabel('Username', { exact: true }).count()).toBe(0);
    await expectNoViolations(page, 'Telegram first launch at 360px');
    await shoot(page, 'telegram-first-launch-360');
    await page.getByLabel('Country').selectOption('DE');
    await page.getByRole('button', { name: 'Start Playing!' }).click();
    await until(() => dialog.count()).toBe(0);
    await until(() => page.getByTestId('stat-Country').textContent()).toContain('DE');
    const id = await storedPlayerId(page);
    expect(id).toBeTruthy();

    // The shell: full height, no vertical swipe on the game, the game's colours on Telegram's header.
    await until(() => calls(page).then((made) => made.map(([name]) => name))).toContain(
      'web_app_expand',
    );
    expect(await lastCall(page, 'web_app_setup_swipe_behavior')).toEqual({
      allow_vertical_swipe: false,
    });
    expect(await page.evaluate(() => document.documentElement.classList.contains('telegram'))).toBe(
      true,
    );

    // Taps count, with a light haptic (throttled: fewer haptics than taps in a burst).
    await tapFast(page, 6);
    await until(() => playerTotals(id!)).toBe(6);
    const haptics = (await calls(page)).filter(
      ([name]) => name === 'web_app_trigger_haptic_feedback',
    );
    expect(haptics.length).toBeGreaterThan(0);
    expect(haptics.length).toBeLessThan(6);
    expect(haptics[0]![1]).toEqual({ type: 'impact', impact_style: 'light' });

    // While taps wait to be sent, closing asks first; once they are counted, it no longer does.
    await context.setOffline(true);
    await tapFast(page, 3);
    await until(() => lastCall(page, 'web_app_setup_closing_behavior')).toEqual({
      need_confirmation: true,
    });
    await context.setOffline(false);
    await until(() => playerTotals(id!)).toBe(9);
    await until(() => lastCall(page, 'web_app_setup_closing_behavior')).toEqual({
      need_confirmation: false,
    });

    // A reload inside Telegram, even one that drops the hash, opens the same player, no dialog.
    await page.goto('/play');
    await until(() => page.getByTestId('stat-Total Taps').textContent()).toContain('9');
    expect(await dialog.count()).toBe(0);
    expect(await storedPlayerId(page)).toBe(id);
    await shoot(page, 'telegram-play-360');

    // Another screen has Telegram's Back button; the game hides it.
    await page.getByRole('link', { name: 'LOLGram' }).click();
    await until(() => lastCall(page, 'web_app_setup_back_button')).toEqual({ is_visible: true });
    expect(await lastCall(page, 'web_app_setup_swipe_behavior')).toEqual({
      allow_vertical_swipe: true,
    });
    await context.close();
  });

  it('changes the player’s country from the Country tile inside the Mini App', async () => {
    const user = makeTelegramUser();
    const made = await request(server.url)
      .post('/api/telegram/session')
      .send({ initData: signInitData(user), country: 'FR' });
    expect(made.status).toBe(201);
    const { id } = (made.body as { user: { id: string } }).user;

    const context = await telegramContext(360);
    const page = await context.newPage();
    await page.goto(`/play${launchHash(signInitData(user))}`);
    await until(() => page.getByTestId('stat-Country').textContent()).toContain('FR');
    await page.getByRole('button', { name: 'Change country' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Change your country' });
    await until(() => dialog.isVisible()).toBe(true);
    await dialog.getByLabel('Country').selectOption('PT');
    await dialog.getByRole('button', { name: 'Change country' }).tap();
    await until(() => dialog.count()).toBe(0);
    await until(() => page.getByTestId('stat-Country').textContent()).toContain('PT');
    expect((await request(server.url).get(`/api/users/${id}`)).body).toMatchObject({
      country: 'PT',
    });
    await context.close();
  });

  it('opens a returning Telegram player at once, with no welcome dialog', async () => {
    const user = makeTelegramUser();
    const made = await request(server.url)
      .post('/api/telegram/session')
      .send({ initData: signInitData(user), country: 'FR' });
    expect(made.status).toBe(201);
    const { id } = (made.body as { user: { id: string } }).user;

    const context = await telegramContext(1280);
    const page = await context.newPage();
    await page.goto(`/play${launchHash(signInitData(user))}`);
    await until(() => page.getByTestId('stat-Country').textContent()).toContain('FR');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await tapFast(page, 2);
    await until(() => playerTotals(id)).toBe(2);
    expect(await storedPlayerId(page)).toBe(id);
    await shoot(page, 'telegram-play-desktop');
    await context.close();
  });

  it('says why when Telegram sign-in data is refused, and never offers a web username', async () => {
    const context = await telegramContext();
    const page = await context.newPage();
    const stale = signInitData(makeTelegramUser(), {
      authDate: new Date(Date.now() - 2 * 3600_000),
    });
    await page.goto(`/play${launchHash(stale)}`);
    const dialog = page.getByRole('dialog');
    await until(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('heading').textContent()).toBe(
      'TapGram could not sign you in from Telegram',
    );
    expect(await dialog.textContent()).toContain('expired');
    expect(await page.getByLabel('Username', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('links a web player to Telegram once, with a code from the web, so that both open the same player', async () => {
    const web = await browser.newContext({
      ...viewportOptions(360),
      baseURL: server.url,
      ...WITHOUT_SERVICE_WORKER,
    });
    const page = await web.newPage();
    await page.goto('/play');
    await until(() => page.getByRole('dialog').isVisible()).toBe(true);
    const name = `webtg_${Date.now().toString(36)}`;
    await page.getByLabel('Username', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Start Playing!' }).click();
    await until(() => page.getByRole('dialog').count()).toBe(0);
    await tapFast(page, 3);
    const webId = await storedPlayerId(page);
    await until(() => playerTotals(webId!)).toBe(3);

    const card = page.getByTestId('telegram-link');
    await card.getByRole('button', { name: 'Link to Telegram' }).click();
    const open = card.getByTestId('telegram-link-open');
    await until(() => open.count()).toBe(1);
    const href = await open.getAttribute('href');
    const startParam = new URL(href!).searchParams.get('startapp');
    expect(startParam).toMatch(/^link-/);
    await expectNoViolations(page, 'Telegram link card at 360px');
    await shoot(page, 'telegram-link-card-360', { fullPage: true });

    // Telegram opens the Mini App with the code: the launch plays as the web player, asked nothing.
    const telegram = await telegramContext();
    const mini = await telegram.newPage();
    const launch = signInitData(makeTelegramUser(), { startParam: startParam! });
    await mini.goto(`/play${launchHash(launch)}`);
    await until(() => storedPlayerId(mini)).toBe(webId);
    await until(() => mini.getByTestId('stat-Total Taps').textContent()).toContain('3');
    expect(await mini.getByRole('dialog').count()).toBe(0);
    await until(() =>
      mini.getByText('This Telegram account now opens your web player.').count(),
    ).toBe(1);
    await tapFast(mini, 2);
    await until(() => playerTotals(webId!)).toBe(5);

    await page.reload();
    await until(() => card.textContent()).toContain('This player opens in Telegram too.');
    await web.close();
    await telegram.close();
  });

  it("counts a startapp invitation once, and shares a player's own invite through Telegram", async () => {
    // The inviter plays in Telegram too.
    const inviterUser = makeTelegramUser();
    const made = await request(server.url)
      .post('/api/telegram/session')
      .send({ initData: signInitData(inviterUser), country: 'FR' });
    const inviter = made.body as { user: { id: string; username: string } };
    const inviterCookie = String(made.headers['set-cookie']).split(';')[0];
    const { code } = (
      await request(server.url)
        .get(`/api/users/${inviter.user.id}/invite`)
        .set('Cookie', inviterCookie)
    ).body as { code: string };

    const invitee = makeTelegramUser();
    const context = await telegramContext();
    const page = await context.newPage();
    await page.goto(`/play${launchHash(signInitData(invitee, { startParam: code }))}`);
    const dialog = page.getByRole('dialog');
    await until(() => dialog.isVisible()).toBe(true);
    await page.getByLabel('Country').selectOption('JP');
    await page.getByRole('button', { name: 'Start Playing!' }).click();
    await until(() => dialog.count()).toBe(0);
    await until(() => storedPlayerId(page)).toBeTruthy();
    const inviteeId = await storedPlayerId(page);

    const invitations = async () =>
      (
        (
          await request(server.url)
            .get(`/api/users/${inviter.user.id}/invitations`)
            .set('Cookie', inviterCookie)
        ).body as { invitations: { invitee: { id: string } }[] }
      ).invitations.map((invitation) => invitation.invitee.id);
    await until(invitations).toEqual([inviteeId]);

    // The same launch again (a reload) counts nothing more.
    await page.reload();
    await until(() => page.getByTestId('stat-Country').textContent()).toContain('JP');
    expect(await invitations()).toEqual([inviteeId]);

    // The invitee's own invite link opens the Mini App, and Share is Telegram's.
    const link = page.getByTestId('invite-link');
    await until(() => link.inputValue()).toMatch(
      /^https:\/\/t\.me\/TapGramTestBot\/play\?startapp=/,
    );
    await page.getByTestId('invite').getByRole('button', { name: 'Share' }).click();
    await until(() => lastCall(page, 'web_app_open_tg_link')).toBeTruthy();
    const opened = await lastCall(page, 'web_app_open_tg_link');
    expect(String(opened?.path_full)).toContain('/share/url?url=');
    expect(decodeURIComponent(String(opened?.path_full))).toContain(await link.inputValue());
    await shoot(page, 'telegram-invite-360', { fullPage: true });
    await context.close();
  });

  it('leaves the web game as it was: no Telegram shell, the usual welcome', async () => {
    const context = await browser.newContext({
      ...viewportOptions(360),
      baseURL: server.url,
      ...WITHOUT_SERVICE_WORKER,
    });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(req.url());
    });
    await page.goto('/play');
    await until(() => page.getByRole('dialog').isVisible()).toBe(true);
    expect(await page.getByLabel('Username', { exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.classList.contains('telegram'))).toBe(
      false,
    );
    // The SDK's code is not loaded on the web.
    const bodies = await Promise.all(
      scripts.map((url) =>
        request(server.url)
          .get(new URL(url).pathname)
          .then((r) => r.text),
      ),
    );
    expect(bodies.some((body) => body.includes('web_app_setup_swipe_behavior'))).toBe(false);
    await context.close();
  });
});
