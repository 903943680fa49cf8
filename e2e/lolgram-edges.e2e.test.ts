import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../backend/test-support';
import { TestWallet } from '../backend/test/lolgram/builders';
import { chromiumPath, chunkOf, launch, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { PHONE_HEIGHT, photo, post, upload, viewportOptions } from './seed';
import { contextsClosedAfterEach, until } from './setup';

const executable = chromiumPath();
const PASSWORD = 'correct horse battery';

interface Member {
  id: string;
  username: string;
  cookie: string;
}

/**
 * Scrolls to the page's foot, where a post's thread ends, as the screen shows it there (a full-page
 * capture would draw the sticky comment box over the middle of the page).
 */
const toBottom = (page: Page) =>
  page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

/** Whether two elements' boxes share a pixel. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('not on the page');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** Whether an element's text is all drawn on screen: not cut short by an ellipsis nor squeezed out. */
const wholeOnScreen = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return (
      box.width > 0 &&
      el.scrollWidth <= el.clientWidth &&
      box.left >= 0 &&
      box.right <= document.documentElement.clientWidth
    );
  });

/**
 * LOLGram on a phone, at the edges the first weeks showed: how the sign-in dialog opens for a
 * first visit, what is drawn over what at 320 and 360 px, the "Your story" bubble, and the counts
 * (one post, one follower) said as a person would.
 */
describe.runIf(executable)('LOLGram on a phone, at its edges', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts = contextsClosedAfterEach();
  beforeAll(async () => {
    server = await startTestServer({ env: { MODERATION_IMAGE_CHECK: 'off' } });
    browser = await launch(executable!);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const account = async (prefix: string): Promise<Member> => {
    const username = `${prefix}_${Date.now().toString(36)}`;
    const made = await post(server.url, '/api/lolgram/users/create', {
      username,
      password: PASSWORD,
    });
    return { username, id: made.body.id, cookie: made.cookie };
  };
  /** An account made by signing in with a wallet, as the app does: its posts can be minted. */
  const walletAccount = async (): Promise<Member> => {
    const wallet = new TestWallet();
    const request = await post(server.url, '/api/lolgram/auth/wallet/nonce', {
      address: wallet.address,
    });
    const username = `wallet_${wallet.address.slice(0, 8)}`;
    const made = await post(server.url, '/api/lolgram/users/create', {
      username,
      password: wallet.address,
      walletAddress: wallet.address,
      proof: wallet.sign(request.body as never),
    });
    return { username, id: made.body.id, cookie: made.cookie };
  };
  /** A post by `author`, once its check has made it public. */
  const publicPost = async (author: Member, caption: string) => {
    const made = await upload(server.url, author, caption);
    await until(
      async () => (await fetch(`${server.url}/api/lolgram/posts/${made.id}`)).status,
    ).toBe(200);
    return made;
  };
  /** Calls the API as `member`; throws on a refusal. */
  const call = async (member: Member, method: string, path: string, body: unknown = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', cookie: member.cookie },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };

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
    shoot(page, `lolgram-edges-${name}`, { fullPage: true });

  it('opens the sign-in dialog on "Join LOLGram" for a first visit, on "Welcome Back!" after a sign-in here', async () => {
    const page = await open(360);
    // The wallet's code is held back until the dialog has been measured without it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${chunkOf('src/features/wallet/index.ts')}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/lolgram');
    const loginButton = page.getByRole('button', { name: 'Login / Sign Up' }).first();
    await loginButton.tap();
    const joining = page.getByRole('dialog', { name: 'Join LOLGram' });
    await until(() => joining.isVisible()).toBe(true);
    const username = `newcomer_${Date.now().toString(36)}`;
    // Nothing moves as the wallet's part arrives: the switch stays under the finger about to tap it.
    const signInSwitch = joining.getByRole('button', { name: 'Sign in', exact: true });
    const before = await signInSwitch.boundingBox();
    release();
    await until(() => joining.getByRole('button', { name: 'Select Wallet' }).isVisible()).toBe(
      true,
    );
    expect(await signInSwitch.boundingBox()).toEqual(before);
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

  it("keeps the author's comment switch off the comment count on their post's page (320, 360 px)", async () => {
    const author = await account('author');
    const made = await publicPost(author, 'my own joke');
    const page = await open(320, author);
    await page.goto(`/lolgram/p/${made.id}`);
    const toggle = page.getByRole('button', { name: 'Turn off commenting' });
    const heading = page.getByRole('heading', { name: /^Comments/ });
    const count = heading.getByText('0 comments');
    await until(() => toggle.isVisible()).toBe(true);
    for (const width of [320, 360]) {
      await page.setViewportSize({ width, height: PHONE_HEIGHT });
      await until(() => overlap(toggle, count)).toBe(false);
      expect(await overlap(toggle, heading)).toBe(false);
      expect(await wholeOnScreen(count)).toBe(true);
      await toBottom(page);
      await shoot(page, `lolgram-edges-own-post-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await overlap(toggle, count)).toBe(false);
    await toBottom(page);
    await shoot(page, 'lolgram-edges-own-post-1280');
  });

  it("shows a wallet user's whole name beside the Mint NFT pill in the feed (320, 360 px)", async () => {
    const minter = await walletAccount();
    await publicPost(minter, 'minted on a phone');
    const page = await open(320, await account('viewer'));
    await page.goto('/lolgram');
    const card = page.getByRole('article', { name: `Post by ${minter.username}` });
    const name = card.locator('header').getByText(minter.username, { exact: true });
    const pill = card.getByRole('button', { name: 'Mint NFT Coming Soon' });
    await until(() => pill.isVisible()).toBe(true);
    for (const width of [320, 360]) {
      await page.setViewportSize({ width, height: PHONE_HEIGHT });
      await until(() => wholeOnScreen(name)).toBe(true);
      expect(await overlap(name, pill)).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      await shoot(card, `lolgram-edges-mint-${width}`);
    }
    // Where there is room, the pill says what it is.
    await page.setViewportSize({ width: 1280, height: 800 });
    await until(() => pill.getByText('Mint NFT').isVisible()).toBe(true);
    expect(await wholeOnScreen(name)).toBe(true);
    await shoot(card, 'lolgram-edges-mint-1280');
  });

  it('opens the create-post dialog from "Your story", and the sign-in dialog for a visitor', async () => {
    const visitor = await open(360);
    await visitor.goto('/lolgram');
    // Its "+", in the bubble's corner.
    await visitor.getByRole('button', { name: /^Your story/ }).tap({ position: { x: 56, y: 56 } });
    await until(() => visitor.getByRole('dialog', { name: 'Join LOLGram' }).isVisible()).toBe(true);

    const page = await open(360, await account('storyteller'));
    await page.goto('/lolgram');
    await page.getByRole('button', { name: /^Your story/ }).tap({ position: { x: 56, y: 56 } });
    await until(() => page.getByRole('dialog', { name: 'Create New LOL' }).isVisible()).toBe(true);
    await shot(page, 'your-story-360');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'your-story-1280');
  });

  it('counts one post, one follower, one LOL and one comment in the singular, and forgets a follow undone', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const page = await open(360, alice);
    await page.goto('/lolgram');
    // A count as it reads: its figure, then its word.
    const stat = async (key: string) => {
      const figure = page.getByTestId(`stat-${key}`);
      const word = figure.locator('xpath=preceding-sibling::dt');
      return `${await figure.textContent()} ${await word.textContent()}`;
    };
    // Alice opens her profile, posts through the dialog, and looks at her profile again.
    await page.getByRole('tab', { name: 'Profile' }).tap();
    await until(() => stat('posts')).toBe('0 posts');
    await page.getByRole('button', { name: 'Create post' }).tap();
    await page
      .getByRole('dialog')
      .getByTestId('post-image-input')
      .setInputFiles({ name: 'meme.png', mimeType: 'image/png', buffer: await photo() });
    await page
      .getByRole('dialog', { name: 'Crop Your Photo' })
      .getByRole('button', { name: 'Use Photo' })
      .tap();
    const caption = 'my first LOL';
    await page.getByLabel('Caption').fill(caption);
    await page.getByRole('button', { name: 'Share' }).tap();
    await until(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('tab', { name: 'Profile' }).tap();
    await until(() => stat('posts')).toBe('1 post');
    await until(() => page.getByRole('img', { name: caption }).count()).toBe(1);
    await shot(page, 'own-profile-360');

    // Bob follows her, LOLs and comments on her post.
    const ids = async () => {
      const res = await fetch(`${server.url}/api/lolgram/posts/user/${alice.id}`);
      return ((await res.json()) as { id: string }[]).map((p) => p.id);
    };
    await until(ids).toHaveLength(1);
    const [postId] = await ids();
    await call(bob, 'POST', `/api/lolgram/users/${alice.id}/follow`, { followerId: bob.id });
    await call(bob, 'POST', `/api/lolgram/posts/${postId}/lol`);
    await call(bob, 'POST', `/api/lolgram/posts/${postId}/comments`, { text: 'ha!' });
    const bell = page.getByTestId('notification-bell');
    await until(() => bell.getAttribute('aria-label')).toBe('Notifications, 3 unread');
    await page.reload();
    await until(() => stat('followers')).toBe('1 follower');
    expect(await stat('posts')).toBe('1 post');
    await page.getByRole('tab', { name: 'Feed' }).tap();
    const card = page.getByRole('article', { name: `Post by ${alice.username}` });
    await until(() => card.getByText('1 LOL', { exact: true }).isVisible()).toBe(true);
    await until(() => card.getByRole('link', { name: 'View 1 comment' }).isVisible()).toBe(true);
    await shoot(card, 'lolgram-edges-card-360');

    // Bob unfollows: his follow leaves her notifications, as it leaves her count.
    await call(bob, 'DELETE', `/api/lolgram/users/${alice.id}/follow`, { followerId: bob.id });
    await until(() => bell.getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await bell.tap();
    const list = page.getByRole('dialog', { name: 'Notifications' });
    await until(() => list.getByTestId('notification').count()).toBe(2);
    expect(await list.getByText('started following you').count()).toBe(0);
    await shot(page, 'notifications-360');
    // Her profile counts him no more.
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Profile' }).tap();
    await until(() => stat('followers')).toBe('0 followers');
    expect(await stat('posts')).toBe('1 post');

    const desktop = await open(1280, alice);
    await desktop.goto('/lolgram?tab=profile');
    await until(() => desktop.getByTestId('stat-posts').textContent()).toBe('1');
    await shot(desktop, 'own-profile-1280');
  });

  it('hides a blocked commenter from the blocker without calling it deleted, and counts what it shows', async () => {
    const [alice, bob, carol] = [
      await account('blocker'),
      await account('blocked'),
      await account('bystander'),
    ];
    const made = await publicPost(alice, 'a thread with a pest');
    const said = async (member: Member, text: string, parentId?: string) => {
      await call(member, 'POST', `/api/lolgram/posts/${made.id}/comments`, { text, parentId });
      let id = '';
      await until(async () => {
        const res = await fetch(`${server.url}/api/lolgram/posts/${made.id}/comments`);
        const page = (await res.json()) as { comments: { id: string; text: string }[] };
        id = page.comments.find((c) => c.text === text)?.id ?? '';
        return id;
      }).not.toBe('');
      return id;
    };
    const bobs = await said(bob, 'first, and rude');
    await said(carol, 'be nice', bobs);
    await said(bob, 'no');
    await call(alice, 'POST', `/api/lolgram/users/${bob.id}/block`);

    const page = await open(360, alice);
    await page.goto(`/lolgram/p/${made.id}`);
    const comments = page.getByTestId('comment');
    await until(() => comments.count()).toBe(2);
    expect(await comments.nth(0).textContent()).toBe('Hidden: a comment by an account you blocked');
    expect(await comments.nth(1).textContent()).toContain('be nice');
    expect(await page.getByText('This comment was deleted').count()).toBe(0);
    expect(await page.getByRole('heading', { name: /^Comments/ }).textContent()).toBe(
      'Comments1 comment',
    );
    await toBottom(page);
    await shoot(page, 'lolgram-edges-blocked-thread-360');
    await page.setViewportSize({ width: 1280, height: 800 });
    await toBottom(page);
    await shoot(page, 'lolgram-edges-blocked-thread-1280');
    await page.setViewportSize({ width: 360, height: PHONE_HEIGHT });

    await page.goto('/lolgram');
    const card = page.getByRole('article', { name: `Post by ${alice.username}` });
    await until(() => card.getByRole('link', { name: 'View 1 comment' }).isVisible()).toBe(true);
  });
});
