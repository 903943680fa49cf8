import { Keypair } from '@solana/web3.js';
import sharp from 'sharp';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, startTestServer, type TestServer } from '../backend/test-support';
import { chromiumPath, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { testWalletScript } from '../frontend/test/wallet/test-wallet';
import { contextsClosedAfterEach } from './setup';

const executable = chromiumPath();
const PASSWORD = 'correct horse battery';
const ADMIN = `boss_${Date.now().toString(36)}`;

async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
    <rect width="640" height="400" fill="#fbbf24"/><circle cx="320" cy="200" r="120" fill="#f43f5e"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Signs up through the page's own dialog, which a device nobody signed in on opens on "Join
 * LOLGram"; a name that has an account with this password signs in there.
 */
async function signUp(page: Page, url: string, username: string) {
  await page.goto(`${url}/lolgram`);
  await page.getByRole('button', { name: 'Login / Sign Up' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Join LOLGram' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(0);
  await expect
    .poll(() => page.getByRole('button', { name: 'Your profile' }).isVisible())
    .toBe(true);
}

describe.runIf(executable)('LOLGram and its moderation in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts = contextsClosedAfterEach();
  const newPage = async () => {
    const context = await browser.newContext({
      viewport: { width: 430, height: 900 },
      ...WITHOUT_SERVICE_WORKER,
    });
    contexts.push(context);
    return context.newPage();
  };
  beforeAll(async () => {
    server = await startTestServer({
      env: { ADMIN_USERNAMES: ADMIN, MODERATION_IMAGE_CHECK: 'on' },
    });
    // As an operator does with `npm run admin -- create`: a listed name cannot be signed up.
    await createAdmin(server, ADMIN, PASSWORD);
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const author = `author_${Date.now().toString(36)}`;
  const caption = `when the tests pass ${Date.now()}`;

  it('makes no account for a mistyped name however often Enter is pressed (360 px)', async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 780 },
      hasTouch: true,
      ...WITHOUT_SERVICE_WORKER,
    });
    contexts.push(context);
    const page = await context.newPage();
    const typo = `typo_${Date.now().toString(36)}`;
    await page.goto(`${server.url}/lolgram`);
    await page.getByRole('button', { name: 'Login / Sign Up' }).first().click();
    const dialog = page.getByRole('dialog');
    // Nobody signed in on this device yet: the dialog opens on "Join LOLGram".
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await dialog.getByRole('heading', { name: 'Welcome Back!' }).waitFor();
    await dialog.getByLabel('Username').fill(typo);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByLabel('Password').press('Enter');
    const question = dialog.getByRole('group', { name: `There is no account named ${typo}.` });
    await question.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => dialog.getByLabel('Username').evaluate((el) => el === document.activeElement))
      .toBe(true);
    await shoot(page, 'lolgram-signin-typo-360');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await question.waitFor();
    expect(await dialog.getByRole('heading', { name: 'Welcome Back!' }).isVisible()).toBe(true);
    const lookup = await fetch(`${server.url}/api/lolgram/users/username/${typo}`);
    expect(lookup.status).toBe(404);
  });

  it('signs up, posts through the crop dialog, and sees the post in the feed, explore and profile', async () => {
    const page = await newPage();
    await signUp(page, server.url, author);
    await page.getByRole('button', { name: 'Create post' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByTestId('post-image-input')
      .setInputFiles({ name: 'meme.png', mimeType: 'image/png', buffer: await photo() });
    const crop = page.getByRole('dialog', { name: 'Crop Your Photo' });
    await expect.poll(() => crop.isVisible()).toBe(true);
    await shoot(page, 'lolgram-crop');
    await crop.getByRole('button', { name: 'Use Photo' }).click();
    await page.getByLabel('Caption').fill(caption);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => page.getByRole('dialog').count(), { timeout: 15_000 }).toBe(0);

    const card = page.getByRole('article', { name: `Post by ${author}` });
    await expect.poll(() => card.getByText(caption).isVisible()).toBe(true);
    await card.getByRole('button', { name: 'LOL' }).click();
    await expect
      .poll(() => card.getByRole('button', { name: 'Remove LOL' }).isVisible())
      .toBe(true);
    await shoot(page, 'lolgram-feed');

    await page.getByRole('tab', { name: 'Explore' }).click();
    const thumbnail = page.getByRole('img', { name: caption });
    await expect.poll(() => thumbnail.first().getAttribute('src')).toMatch(/-thumb\.jpg$/);
    await page.getByRole('tab', { name: 'Profile' }).click();
    await expect
      .poll(() => page.getByRole('img', { name: caption }).first().isVisible())
      .toBe(true);

    // Edit the profile and the avatar.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByRole('dialog').getByLabel('Bio').fill('I post memes for a living');
    await page.getByRole('dialog').getByRole('button', { name: /^Save/ }).click();
    await expect
      .poll(() => page.getByText('I post memes for a living').isVisible(), { timeout: 10_000 })
      .toBe(true);
    await page
      .getByTestId('avatar-input')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await photo() });
    await expect
      .poll(
        () =>
          page
            .getByRole('button', { name: 'Change profile photo' })
            .locator('img')
            .getAttribute('src'),
        { timeout: 10_000 },
      )
      .toMatch(/\/api\/lolgram\/images\/avatars\//);
    await shoot(page, 'lolgram-profile', { fullPage: true });
  });

  it('follows from a second account and sees the counts; a missing user shows User Not Found', async () => {
    const page = await newPage();
    await signUp(page, server.url, `fan_${Date.now().toString(36)}`);
    await page.goto(`${server.url}/lolgram/${author}`);
    await expect
      .poll(() => page.getByRole('heading', { name: `@${author}` }).isVisible())
      .toBe(true);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect.poll(() => page.getByText('Following!').first().isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('button', { name: 'Following', exact: true }).isVisible())
      .toBe(true);
    await page.reload();
    await expect
      .poll(() =>
        page
          .getByText(/1\s*followers?/i)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await shoot(page, 'lolgram-public-profile');

    await page.goto(`${server.url}/lolgram/nobody_${Date.now().toString(36)}`);
    await expect.poll(() => page.getByText('User Not Found').first().isVisible()).toBe(true);
    await expect
      .poll(() => page.getByText(/doesn't exist or may have been removed/).isVisible())
      .toBe(true);
  });

  it.each([
    { signIn: true, feature: 'its signIn feature' },
    { signIn: false, feature: 'a signed message' },
  ])('signs a wallet in with Sign-In With Solana through $feature', async ({ signIn }) => {
    const keypair = Keypair.generate();
    const address = keypair.publicKey.toBase58();
    const page = await newPage();
    await page.addInitScript({ content: testWalletScript(keypair.secretKey, { signIn }) });
    await page.goto(`${server.url}/lolgram?tab=profile`);
    await page.getByRole('button', { name: 'Select Wallet' }).first().click();
    await page.getByRole('button', { name: /Test Wallet/ }).click();
    const username = `wallet_${address.slice(0, 8)}`;
    await expect
      .poll(() => page.getByText(username).first().isVisible(), { timeout: 20_000 })
      .toBe(true);
    await shoot(page, `lolgram-wallet-${signIn ? 'sign-in' : 'message'}`);
    const me = await page.evaluate(async () => (await fetch('/api/lolgram/users/me')).json());
    expect(me).toMatchObject({ username, walletAddress: address });

    // Disconnect on the wallet's menu signs the wallet session out, not only the wallet.
    const onProfile = page.getByTestId('profile-wallet');
    await onProfile.getByRole('button', { name: `${address.slice(0, 4)}..` }).click();
    await onProfile.getByRole('menuitem', { name: 'Disconnect' }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Login / Sign Up' }).first().isVisible())
      .toBe(true);
    const after = await page.evaluate(async () => (await fetch('/api/lolgram/users/me')).status);
    expect(after).toBe(401);
  });

  it.each([
    { input: 'mouse' as const },
    { input: 'touch' as const },
    { input: 'keyboard' as const },
  ])(
    'signs a wallet in from the Login / Sign Up dialog by $input: the wallet chooser takes the clicks and the focus',
    async ({ input }) => {
      const keypair = Keypair.generate();
      const address = keypair.publicKey.toBase58();
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        ...(input === 'touch' ? { hasTouch: true, isMobile: true } : {}),
        ...WITHOUT_SERVICE_WORKER,
      });
      contexts.push(context);
      const page = await context.newPage();
      await page.addInitScript({ content: testWalletScript(keypair.secretKey, { signIn: true }) });
      await page.goto(`${server.url}/lolgram`);
      const press = async (locator: Locator) => {
        if (input === 'mouse') await locator.click();
        else if (input === 'touch') await locator.tap();
        else {
          await locator.focus();
          await page.keyboard.press('Enter');
        }
      };

      await press(page.getByRole('button', { name: 'Login / Sign Up' }).first());
      const auth = page.getByRole('dialog', { name: 'Join LOLGram' });
      await press(auth.getByRole('button', { name: 'Select Wallet' }));
      const chooser = page.getByRole('dialog', { name: 'Connect a wallet on Solana to continue' });
      await expect.poll(() => chooser.isVisible(), { timeout: 15_000 }).toBe(true);
      // The chooser holds the focus, over the auth dialog: one Escape closes it alone.
      await expect
        .poll(() => chooser.evaluate((node) => node.contains(document.activeElement)))
        .toBe(true);
      await shoot(page, `lolgram-wallet-chooser-${input}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => chooser.count()).toBe(0);
      expect(await auth.isVisible()).toBe(true);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
        .toBe('Select Wallet');

      await press(auth.getByRole('button', { name: 'Select Wallet' }));
      const wallet = chooser.getByRole('button', { name: /Test Wallet/ });
      if (input === 'keyboard') {
        // The first wallet has the focus as the chooser opens.
        await expect
          .poll(() => wallet.evaluate((node) => node === document.activeElement))
          .toBe(true);
        await page.keyboard.press('Enter');
      } else {
        await press(wallet);
      }

      const username = `wallet_${address.slice(0, 8)}`;
      await expect.poll(() => page.getByRole('dialog').count(), { timeout: 20_000 }).toBe(0);
      await expect
        .poll(() => page.getByRole('button', { name: 'Your profile' }).isVisible())
        .toBe(true);
      const me = await page.evaluate(async () => (await fetch('/api/lolgram/users/me')).json());
      expect(me).toMatchObject({ username, walletAddress: address });
    },
  );

  it('opens a post from its Explore tile, at an address that opens it directly', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/lolgram?tab=explore`);
    await page.getByRole('link', { name: new RegExp(`^${caption}`) }).click();
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: 10_000 })
      .toMatch(/^\/lolgram\/p\/[0-9a-f-]{36}$/);
    const address = page.url();
    const card = page.getByRole('article', { name: `Post by ${author}` });
    await expect.poll(() => card.getByText(caption).isVisible(), { timeout: 10_000 }).toBe(true);

    // Shared: a new visitor opens the address itself.
    const visitor = await newPage();
    const answer = await visitor.goto(address);
    expect(answer?.status()).toBe(200);
    const shared = visitor.getByRole('article', { name: `Post by ${author}` });
    await expect.poll(() => shared.getByText(caption).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(() =>
        shared
          .getByRole('img', { name: caption })
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await shared.getByText(/^\d+ LOLs?$/).isVisible()).toBe(true);
    expect(await shared.getByRole('button', { name: 'LOL' }).isVisible()).toBe(true);
    await shoot(visitor, 'lolgram-post-view');

    // An address that is no post id is a 404, and the page says the post is not there.
    const wrong = await visitor.goto(`${server.url}/lolgram/p/not-a-post`);
    expect(wrong?.status()).toBe(404);
    await expect
      .poll(() => visitor.getByRole('heading', { name: 'Post Not Found' }).isVisible(), {
        timeout: 10_000,
      })
      .toBe(true);
  });

  it('saves a post into the Saved grid, and shares its link as a copied address', async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    contexts.push(context);
    const page = await context.newPage();
    // No system share sheet, as on most desktop browsers: the link is copied instead.
    await page.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    await signUp(page, server.url, `saver_${Date.now().toString(36)}`);
    const card = page
      .getByRole('article', { name: `Post by ${author}` })
      .filter({ hasText: caption });
    await card.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => card.getByRole('button', { name: 'Remove from Saved' }).isVisible())
      .toBe(true);

    await card.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => page.getByText('Link copied').first().isVisible()).toBe(true);
    await shoot(page, 'lolgram-link-copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(new RegExp(`^${server.url}/lolgram/p/[0-9a-f-]{36}$`));

    await page.getByRole('tab', { name: 'Profile' }).click();
    await page.getByRole('tab', { name: 'Saved' }).click();
    const tile = page
      .getByRole('tabpanel', { name: 'Saved' })
      .getByRole('link', { name: new RegExp(`^${caption}`) });
    await expect.poll(() => tile.getAttribute('href')).toBe(new URL(copied).pathname);
    await shoot(page, 'lolgram-saved-grid');
  });

  it('blocks a follower from their profile: the follows end both ways and a new one is refused', async () => {
    const pestName = `pest_${Date.now().toString(36)}`;
    const pest = await newPage();
    await signUp(pest, server.url, pestName);
    const follow = async (page: Page, whom: string) => {
      await page.goto(`${server.url}/lolgram/${whom}`);
      await page.getByRole('button', { name: 'Follow', exact: true }).click();
      await expect
        .poll(() => page.getByRole('button', { name: 'Following', exact: true }).isVisible())
        .toBe(true);
    };
    await follow(pest, author);
    const owner = await newPage();
    await signUp(owner, server.url, author);
    await follow(owner, pestName);
    await expect.poll(() => owner.getByTestId('stat-followers').textContent()).toBe('1');

    await owner.getByRole('button', { name: 'Profile options' }).click();
    await owner.getByRole('menuitem', { name: `Block @${pestName}` }).click();
    const dialog = owner.getByRole('dialog', { name: `Block @${pestName}?` });
    await dialog.getByRole('button', { name: 'Block' }).click();
    await expect
      .poll(() => owner.getByRole('button', { name: 'Unblock', exact: true }).isVisible())
      .toBe(true);
    // Neither follows the other any more: the pest's counts are 0 both ways.
    await expect.poll(() => owner.getByTestId('stat-followers').textContent()).toBe('0');
    expect(await owner.getByTestId('stat-following').textContent()).toBe('0');
    await shoot(owner, 'lolgram-blocked-profile');

    // The pest is told nothing; their follow is gone, and a new one is refused discreetly.
    await pest.reload();
    const again = pest.getByRole('button', { name: 'Follow', exact: true });
    await expect.poll(() => again.isEnabled()).toBe(true);
    await again.click();
    await expect
      .poll(() => pest.getByText("You can't follow this account").first().isVisible())
      .toBe(true);
    expect(await pest.getByText(/block/i).count()).toBe(0);
    await shoot(pest, 'lolgram-follow-refused');

    await owner.goto(`${server.url}/lolgram?tab=profile`);
    await owner.getByRole('tab', { name: 'Blocked' }).click();
    await owner.getByRole('button', { name: `Unblock @${pestName}` }).click();
    await expect.poll(() => owner.getByText('No blocked accounts').isVisible()).toBe(true);
  });

  it('lets the author edit a caption and delete the post, which leaves the feed and its images', async () => {
    const name = `editor_${Date.now().toString(36)}`;
    const page = await newPage();
    await signUp(page, server.url, name);
    const me = (await (await page.request.get(`${server.url}/api/lolgram/users/me`)).json()) as {
      id: string;
    };
    const made = await page.request.post(`${server.url}/api/lolgram/posts`, {
      multipart: {
        caption: 'teh typo caption',
        userId: me.id,
        image: { name: 'typo.png', mimeType: 'image/png', buffer: await photo() },
      },
    });
    expect(made.status()).toBe(201);
    const post = (await made.json()) as { id: string; imageUrl: string };
    const inFeed = async () =>
      (
        (await (await page.request.get(`${server.url}/api/lolgram/posts/feed`)).json()) as {
          id: string;
        }[]
      ).some((p) => p.id === post.id);
    await expect.poll(inFeed, { timeout: 20_000 }).toBe(true);

    await page.goto(`${server.url}/lolgram/p/${post.id}`);
    const card = page.getByRole('article', { name: `Post by ${name}` });
    await card.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Edit caption' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit caption' });
    await edit.getByLabel('Caption').fill('the typo caption, fixed');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => card.getByText('the typo caption, fixed').isVisible(), { timeout: 10_000 })
      .toBe(true);

    await card.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this post?' });
    await shoot(page, 'lolgram-delete-post');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    // Opened from its address, the page goes back to LOLGram, where the post is no more.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe('/lolgram');
    await expect.poll(() => page.getByText('Post deleted').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('article').first().isVisible()).toBe(true);
    expect(await page.getByText('the typo caption, fixed').count()).toBe(0);
    expect(await inFeed()).toBe(false);
    expect((await page.request.get(`${server.url}${post.imageUrl}`)).status()).toBe(404);
  });

  it('lets a user report a post and an admin reject it out of the feed, explore and the profile', async () => {
    const reporter = await newPage();
    await signUp(reporter, server.url, `critic_${Date.now().toString(36)}`);
    const card = reporter.getByRole('article', { name: `Post by ${author}` });
    await card.getByRole('button', { name: 'Post options' }).click();
    await reporter.getByRole('menuitem', { name: 'Report' }).click();
    await reporter.getByRole('dialog').getByLabel('offensive').check();
    await shoot(reporter, 'lolgram-report');
    await reporter.getByRole('dialog').getByRole('button', { name: 'Report' }).click();
    await expect
      .poll(() => reporter.getByText('Thanks for reporting').first().isVisible())
      .toBe(true);

    const imageUrls = await reporter.evaluate(async (text) => {
      const feed = (await (await fetch('/api/lolgram/posts/feed')).json()) as {
        caption: string;
        imageUrl: string;
        thumbnailUrl: string;
      }[];
      const post = feed.find((p) => p.caption === text);
      return post ? [post.imageUrl, post.thumbnailUrl] : [];
    }, caption);
    expect(imageUrls).toHaveLength(2);

    const admin = await newPage();
    await signUp(admin, server.url, ADMIN);
    await admin.goto(`${server.url}/admin`);
    await admin.getByRole('tab', { name: 'Content Moderation' }).click();
    const item = admin.getByTestId('queue-item').filter({ hasText: caption });
    await expect.poll(() => item.isVisible()).toBe(true);
    await shoot(admin, 'admin-queue', { fullPage: true });
    await item.getByRole('button', { name: 'Reject' }).click();
    // Rejecting asks first.
    const confirmReject = admin.getByRole('dialog', { name: 'Reject this post?' });
    await expect.poll(() => confirmReject.isVisible()).toBe(true);
    await confirmReject.getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => item.count()).toBe(0);

    await reporter.goto(`${server.url}/lolgram`);
    await expect.poll(() => reporter.getByText('Loading your LOLGram feed...').count()).toBe(0);
    expect(await reporter.getByText(caption).count()).toBe(0);
    await reporter.getByRole('tab', { name: 'Explore' }).click();
    expect(await reporter.getByRole('img', { name: caption }).count()).toBe(0);
    await reporter.goto(`${server.url}/lolgram/${author}`);
    await expect
      .poll(() => reporter.getByRole('heading', { name: `@${author}` }).isVisible())
      .toBe(true);
    expect(await reporter.getByRole('img', { name: caption }).count()).toBe(0);

    const outsider = await newPage();
    await outsider.goto(`${server.url}/admin`);
    await expect
      .poll(() => outsider.getByRole('heading', { name: 'Admins only' }).isVisible())
      .toBe(true);
    await shoot(outsider, 'admin-outsider');
    // Its full image and thumbnail are no longer served either.
    const statuses = await reporter.evaluate(
      // no-store: what the server answers now, not the copy this browser kept of the feed.
      async (urls) =>
        Promise.all(urls.map(async (url) => (await fetch(url, { cache: 'no-store' })).status)),
      imageUrls,
    );
    expect(statuses).toEqual([404, 404]);
  });
});
