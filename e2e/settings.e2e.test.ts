import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { Keypair } from '@solana/web3.js';
import { testWalletScript } from '../frontend/test/wallet/test-wallet';
import { expectNoViolations } from './axe';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { newAdmin, photo, post, signIn, upload, viewportOptions } from './seed';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();
const PASSWORD = 'correct horse battery';

interface Member {
  id: string;
  username: string;
  cookie: string;
}

/** Whether the page's focused element is the one `selector` names, and how it shows its focus. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      id: el?.id ?? null,
      postId: el?.getAttribute('data-post-id') ?? null,
      queueId: el?.getAttribute('data-queue-id') ?? null,
      tag: el ? `${el.tagName}.${el.className}` : null,
      ring: el ? el.matches(':focus-visible') : false,
    };
  });

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * The account settings behind the profile's gear, on a 360 px phone (and 320 px and a desktop):
 * changing the password, signing other devices out, deleting the account with its images; and
 * where the focus goes after an action took away what had it.
 */
describe.runIf(executable)('LOLGram settings and focus in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let dataDir: string;
  const contexts = contextsClosedAfterEach();
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-settings-e2e-'));
    server = await startTestServer({ dataDir, env: { MODERATION_IMAGE_CHECK: 'off' } });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const account = async (prefix: string): Promise<Member> => {
    const username = `${prefix}_${Date.now().toString(36)}`;
    const made = await post(server.url, '/api/lolgram/users/create', {
      username,
      password: PASSWORD,
    });
    return { username, id: made.body.id, cookie: made.cookie };
  };
  const publicPost = async (author: Member, caption: string) => {
    const made = await upload(server.url, author, caption);
    await until(
      async () => (await fetch(`${server.url}/api/lolgram/posts/${made.id}`)).status,
    ).toBe(200);
    return made;
  };
  const open = async (width: number): Promise<Page> => {
    const context = await browser.newContext({
      ...viewportOptions(width),
      reducedMotion: 'reduce',
      ...WITHOUT_SERVICE_WORKER,
    });
    contexts.push(context);
    return context.newPage();
  };
  const meStatus = async (cookie: string) =>
    (await fetch(`${server.url}/api/lolgram/users/me`, { headers: { cookie } })).status;
  const openSettings = async (page: Page) => {
    await page.getByRole('tab', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('heading', { name: 'Change password' }).waitFor();
    return dialog;
  };

  it('changes the password, signs the other devices out and deletes the account with its images, at 360 px', async () => {
    const me = await account('leaver');
    const post1 = await publicPost(me, 'my only post');
    const avatar = new FormData();
    avatar.append('avatar', new Blob([new Uint8Array(await photo(300, 300))]), 'me.png');
    const avatarRes = await fetch(`${server.url}/api/lolgram/users/${me.id}/avatar`, {
      method: 'PUT',
      body: avatar,
      headers: { cookie: me.cookie },
    });
    expect(avatarRes.status).toBe(200);
    const imagesDir = path.join(dataDir, 'images');
    expect((await filesUnder(path.join(imagesDir, 'posts', post1.id))).length).toBeGreaterThan(1);
    expect((await filesUnder(path.join(imagesDir, 'avatars', me.id))).length).toBeGreaterThan(0);

    const page = await open(360);
    await signIn(page, server.url, me.username);
    // Signed in: the focus is on the signed-in header's account button, not lost on the page.
    await until(async () => (await focused(page)).id).toBe('lolgram-account');

    const dialog = await openSettings(page);
    await shoot(page, 'settings-360');
    await expectNoViolations(page, 'the settings dialog at 360 px');

    // A wrong current password is said so, in the dialog.
    await dialog.getByLabel('Current password').fill('not my password');
    await dialog.getByLabel('New password').fill('a brand new secret');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await until(() => dialog.getByRole('alert').textContent()).toBe(
      'The current password is not right',
    );
    await shoot(page, 'settings-360-wrong-password');

    // The right one: the phone signed in before (the sign-up's session) is signed out.
    expect(await meStatus(me.cookie)).toBe(200);
    await dialog.getByLabel('Current password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await until(() => meStatus(me.cookie)).toBe(401);
    await until(() => dialog.getByTestId('other-sessions').textContent()).toBe(
      'Signed in on this device only.',
    );

    // Another device signs in; "Sign out of all other devices" ends it.
    const tablet = await post(server.url, '/api/lolgram/users/login', {
      username: me.username,
      password: 'a brand new secret',
    });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    const again = await openSettings(page);
    await until(() => again.getByTestId('other-sessions').textContent()).toBe(
      'Signed in on 1 other device.',
    );
    await again.getByRole('button', { name: 'Sign out of all other devices' }).click();
    await until(() => meStatus(tablet.cookie)).toBe(401);
    await until(() => again.getByTestId('other-sessions').textContent()).toBe(
      'Signed in on this device only.',
    );

    // Delete the account, confirmed by the (new) password.
    await again.getByRole('button', { name: 'Delete account…' }).click();
    await again.getByLabel('Password to confirm').fill('a brand new secret');
    await shoot(page, 'settings-360-delete');
    // The other sessions end first and say so at once: the page may show the signed-out header
    // before the erasure behind the answer has finished.
    const erased = page.waitForResponse(
      (res) => res.url().endsWith('/api/lolgram/users/me/delete') && res.status() === 204,
    );
    await again.getByRole('button', { name: 'Delete my account' }).click();
    await erased;
    await page.getByRole('button', { name: 'Login / Sign Up' }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/lolgram');
    // Nobody is signed in on this browser any more.
    expect(await page.evaluate(async () => (await fetch('/api/lolgram/users/me')).status)).toBe(
      401,
    );
    expect((await fetch(`${server.url}/api/lolgram/posts/${post1.id}`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/lolgram/users/${me.id}`)).status).toBe(404);
    // Its images are gone from the store.
    expect(await filesUnder(path.join(imagesDir, 'posts', post1.id))).toEqual([]);
    expect(await filesUnder(path.join(imagesDir, 'avatars', me.id))).toEqual([]);
    // Its name is not free yet.
    const taken = await fetch(`${server.url}/api/lolgram/users/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: me.username, password: PASSWORD }),
    });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ error: 'This username is not available' });
  });

  it('links a wallet to a password account by its signature, and unlinks it', async () => {
    const me = await account('linker');
    const keypair = Keypair.generate();
    const address = keypair.publicKey.toBase58();
    const page = await open(360);
    await page.addInitScript({ content: testWalletScript(keypair.secretKey, { signIn: true }) });
    await signIn(page, server.url, me.username);
    const dialog = await openSettings(page);
    await dialog.getByRole('button', { name: 'Select Wallet' }).click();
    await page.getByRole('button', { name: /Test Wallet/ }).click();
    // Connected, not yet linked: the person signs the link themselves.
    const sign = dialog.getByRole('button', { name: /^Sign to link/ });
    await sign.click();
    await until(() => dialog.getByText(/^Linked:/).textContent()).toBe(
      `Linked: ${address.slice(0, 4)}…${address.slice(-4)}`,
    );
    await shoot(page, 'settings-360-wallet-linked');
    const settings = await page.evaluate(async () =>
      (await fetch('/api/lolgram/users/me/settings')).json(),
    );
    expect(settings).toMatchObject({ hasPassword: true, walletAddress: address });
    await dialog.getByRole('button', { name: 'Unlink wallet' }).click();
    await dialog.getByRole('button', { name: /^Sign to link/ }).waitFor();
    const after = await page.evaluate(async () =>
      (await fetch('/api/lolgram/users/me/settings')).json(),
    );
    expect(after).toMatchObject({ walletAddress: null });
  });

  it.each([320, 1280])(
    'shows the settings whole at %i px, with no axe violation',
    async (width) => {
      const me = await account(`s${width}`);
      const page = await open(width);
      await signIn(page, server.url, me.username);
      const dialog = await openSettings(page);
      await shoot(page, `settings-${width}`);
      const box = await dialog.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      // Nothing sticks out sideways (a phone would scroll the dialog sideways).
      const wider = await dialog.evaluate((el) => {
        const right = el.getBoundingClientRect().right;
        return Array.from(el.querySelectorAll('*'))
          .filter((child) => child.getBoundingClientRect().right > right + 0.5)
          .map((child) => `${child.tagName}.${child.className}`);
      });
      expect(wider).toEqual([]);
      await expectNoViolations(page, `the settings dialog at ${width} px`);
    },
  );

  it.each([
    ['clicked with the mouse', 1280, 'click'],
    ['clicked on a phone', 360, 'click'],
    ['tapped on a phone', 360, 'tap'],
  ] as const)(
    'shows no focus ring on a bottom tab %s, and one for the keyboard',
    async (_how, width, act) => {
      const me = await account('mouse');
      const page = await open(width);
      await signIn(page, server.url, me.username);
      const explore = page.getByRole('tab', { name: 'Explore' });
      await explore[act]();
      await until(() => explore.getAttribute('data-state')).toBe('active');
      const clicked = await focused(page);
      expect(clicked.ring).toBe(false);
      const ring = await explore.evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(ring).toBe('none');
      await page.keyboard.press('ArrowRight');
      // The tab list moves the focus on the next task, not within the key press.
      const map = page.getByRole('tab', { name: 'Map' });
      await until(() => map.evaluate((el) => el === document.activeElement)).toBe(true);
      const keyed = await focused(page);
      expect(keyed.ring).toBe(true);
      expect(await map.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    },
  );

  it('moves the focus to the next post after one is deleted from the feed', async () => {
    const me = await account('poster');
    const older = await publicPost(me, 'the older post');
    const newer = await publicPost(me, 'the newer post');
    const page = await open(360);
    await signIn(page, server.url, me.username);
    const card = page.locator(`[data-post-id="${newer.id}"]`);
    await card.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this post?' })
      .getByRole('button', {
        name: 'Delete',
        exact: true,
      })
      .click();
    await until(async () => (await focused(page)).postId).toBe(older.id);
    await card.waitFor({ state: 'detached' });

    // The next one has nothing below it (but posts of others, if any): the focus goes to the one
    // above, else to the feed.
    const olderCard = page.locator(`[data-post-id="${older.id}"]`);
    const expected = await olderCard.evaluate(
      (el) =>
        (el.nextElementSibling ?? el.previousElementSibling)?.getAttribute('data-post-id') ??
        'lolgram-feed',
    );
    await olderCard.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this post?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await until(async () => {
      const now = await focused(page);
      return now.postId ?? now.id;
    }).toBe(expected);
  });

  it('moves the focus to the next queue item after an admin decides one', async () => {
    const author = await account('reported');
    const first = await publicPost(author, 'first reported');
    const second = await publicPost(author, 'second reported');
    const reporter = await account('reporter');
    for (const reported of [first, second]) {
      await post(
        server.url,
        `/api/lolgram/posts/${reported.id}/report`,
        { reason: 'spam' },
        reporter.cookie,
      );
    }
    const admin = await newAdmin(server);
    const page = await open(1280);
    await signIn(page, server.url, admin);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Content Moderation' }).click();
    const items = page.getByTestId('queue-item');
    await until(() => items.count()).toBe(2);
    const ids = await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-queue-id')));
    await items.first().getByRole('button', { name: 'Approve' }).click();
    await until(() => items.count()).toBe(1);
    await until(async () => (await focused(page)).queueId).toBe(ids[1]);

    await items.first().getByRole('button', { name: 'Reject' }).click();
    await page
      .getByRole('dialog', { name: /^Reject this/ })
      .getByRole('button', {
        name: 'Reject',
        exact: true,
      })
      .click();
    await until(async () => (await focused(page)).id).toBe('moderation-queue-empty');
  });
});
