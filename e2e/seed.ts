import sharp from 'sharp';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import { createAdmin, type TestServer } from '../backend/test-support';
import { WITHOUT_SERVICE_WORKER } from './browser';

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

interface SeededPost {
  id: string;
  caption: string;
}

/** What the layout and accessibility suites look at: a site with posts, players and an admin. */
export interface SeededSite {
  url: string;
  /** An author of posts, for `/lolgram/:username`. */
  author: string;
  /** The author's first post, which has a location, for `/lolgram/p/:postId`. */
  post: SeededPost;
  /**
   * Signed in to LOLGram as the admin, and a game player. The admin has one post, the oldest of
   * the feed (for its author's menu), saved another, and blocked an account that never posted.
   */
  member: StorageState;
  /** The member's own post. */
  ownPost: SeededPost;
  /** The account the member blocked. */
  blocked: string;
  /** A game player on the boards (the longest name), for `/admin/players/:id`. */
  player: SeededPlayer;
}

interface SeededPlayer {
  id: string;
  username: string;
}

export const PHONE_HEIGHT = 740;
export const SCREEN_SIZES: Record<number, { width: number; height: number }> = {
  1280: { width: 1280, height: 800 },
  1920: { width: 1920, height: 1080 },
};

const PASSWORD = 'correct horse battery';
/** The member's game player's country: what their game shows once it has loaded them (US before). */
export const MEMBER_COUNTRY = 'FR';
const CAPTIONS = [
  'when the build is green on the first try',
  'Monday mood',
  'my cat reviewing my pull request before I have even finished typing the description',
  'supercalifragilisticexpialidocious_captions_without_spaces_must_wrap_too',
];
const LOCATION = 'Llanfairpwllgwyngyll, Isle of Anglesey';
const OWN_CAPTION = 'the member’s own joke';
/** An account that never posts, which the member blocked. */
const BLOCKED = 'spam_bot';
/** The longest names the rules allow, to show how rows and headers cope with them. */
const LONG_PLAYER = 'the_longest_username';
const LONG_AUTHOR = 'a_rather_long_author';

/** A context of `width`: below 1024 px a touch phone 740 px tall, else a desktop or a TV. */
export function viewportOptions(width: number): BrowserContextOptions {
  const screen = SCREEN_SIZES[width];
  if (screen) return { viewport: screen };
  return { viewport: { width, height: PHONE_HEIGHT }, isMobile: true, hasTouch: true };
}

/** A PNG of a disc on a plain background, coloured from `hue`. */
export async function photo(width = 800, height = 600, hue = 40): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="hsl(${hue},70%,55%)"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}"
      fill="hsl(${(hue + 150) % 360},70%,45%)"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** POSTs JSON as a browser would, keeping the cookies the answer sets; throws on a refusal. */
export async function post(url: string, path: string, body: unknown, cookie?: string) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return { body: (await res.json()) as { id: string }, cookie: cookies.join('; ') };
}

/** Uploads a post as the signed-in `author` (a cookie), with a location or not. */
export async function upload(
  url: string,
  author: { id: string; cookie: string },
  caption: string,
  { located = false, hue = 40 } = {},
): Promise<SeededPost> {
  const form = new FormData();
  form.append('caption', caption);
  form.append('userId', author.id);
  if (located) form.append('location', JSON.stringify({ name: LOCATION, lat: 0, lng: 0 }));
  const image = new Uint8Array(await photo(800, 600, hue));
  form.append('image', new Blob([image], { type: 'image/png' }), 'photo.png');
  const res = await fetch(`${url}/api/lolgram/posts`, {
    method: 'POST',
    body: form,
    headers: { cookie: author.cookie },
  });
  if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`);
  return { id: ((await res.json()) as { id: string }).id, caption };
}

/** A post shows in the feed once its automatic check has run. */
async function feedHolds(url: string, posts: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const feed = (await (await fetch(`${url}/api/lolgram/posts/feed`)).json()) as unknown[];
      expect(feed).toHaveLength(posts);
    },
    { timeout: 30_000, interval: 100 },
  );
}

/** Two posts by each author, every other one with a location; returns them in that order. */
async function seedPosts(url: string, authors: string[]): Promise<SeededPost[]> {
  const posts: SeededPost[] = [];
  let n = 0;
  for (const name of authors) {
    const author = await post(url, '/api/lolgram/users/create', {
      username: name,
      password: PASSWORD,
    });
    for (let i = 0; i < 2; i += 1, n += 1) {
      posts.push(
        await upload(
          url,
          { id: author.body.id, cookie: author.cookie },
          CAPTIONS[n % CAPTIONS.length],
          {
            located: n % 2 === 0,
            hue: n * 70,
          },
        ),
      );
    }
  }
  return posts;
}

/** The admin's own post, made first so that it is the oldest: the feed's others come before it. */
async function seedOwnPost(url: string, admin: string): Promise<SeededPost> {
  const signedIn = await post(url, '/api/lolgram/users/login', {
    username: admin,
    password: PASSWORD,
  });
  return upload(url, { id: signedIn.body.id, cookie: signedIn.cookie }, OWN_CAPTION, { hue: 200 });
}

/**
 * Three comments deleted as soon as written: the admin dashboard lists their author under
 * "Comment waves" (the thread stays empty).
 */
async function commentAndDelete(url: string, admin: string, postId: string): Promise<void> {
  const { cookie } = await post(url, '/api/lolgram/users/login', {
    username: admin,
    password: PASSWORD,
  });
  for (let i = 0; i < 3; i += 1) {
    const written = await post(
      url,
      `/api/lolgram/posts/${postId}/comments`,
      { text: `gone ${i}` },
      cookie,
    );
    const deleted = await fetch(`${url}/api/lolgram/comments/${written.body.id}`, {
      method: 'DELETE',
      headers: { cookie },
    });
    if (!deleted.ok) throw new Error(`delete comment: ${deleted.status}`);
  }
}

/** Six players with taps, the first (the longest name) the most; returns that one. */
async function seedPlayers(url: string): Promise<SeededPlayer> {
  const names = [LONG_PLAYER, 'tapper', 'Ana', 'zoe_99', 'kenji-t', 'moe'];
  const countries = ['GB', 'US', 'BR', 'JP', 'DE', 'ZA'];
  const ids: string[] = [];
  for (const [i, username] of names.entries()) {
    const player = await post(url, '/api/users', { username, country: countries[i] });
    const session = await post(url, '/api/sessions', { userId: player.body.id }, player.cookie);
    const tap = { userId: player.body.id, sessionId: session.body.id, pointsPerTap: 1 };
    for (let t = 0; t < names.length - i; t += 1) await post(url, '/api/tap', tap, player.cookie);
    ids.push(player.body.id);
  }
  return { id: ids[0], username: LONG_PLAYER };
}

/** Makes an admin account with a name of its own, as the CLI does; returns the name. */
export async function newAdmin(server: TestServer): Promise<string> {
  const admin = `boss_${Date.now().toString(36)}`;
  await createAdmin(server, admin, PASSWORD);
  return admin;
}

/** Signs in to LOLGram through the sign-in dialog, as a user does (`newAdmin`'s password). */
export async function signIn(page: Page, url: string, username: string): Promise<void> {
  await page.goto(`${url}/lolgram`);
  await page.getByRole('button', { name: 'Login / Sign Up' }).first().click();
  const dialog = page.getByRole('dialog');
  // A device nobody signed in on opens it on "Join LOLGram": the user switches to signing in. The
  // title is waited for, not glanced at: a glance as the dialog appears may miss the switch.
  const title = dialog.getByRole('heading', { name: /^(Join LOLGram|Welcome Back!)$/ });
  await title.waitFor();
  if ((await title.textContent()) === 'Join LOLGram') {
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  }
  await dialog
    .getByRole('heading', { name: 'Welcome Back!' })
    .waitFor()
    .catch(async (error: unknown) => {
      // What the page showed instead, for a failure seen once on a loaded machine.
      const shown = await page
        .getByRole('dialog')
        .allTextContents()
        .catch(() => []);
      throw new Error(`no "Welcome Back!"; dialogs showing: ${JSON.stringify(shown)}`, {
        cause: error,
      });
    });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('button', { name: 'Your profile' }).waitFor({ timeout: 20_000 });
}

/**
 * The member's browser state: signed in to LOLGram as the admin (through the sign-in dialog, as a
 * user does), who reports a post (so the moderation queue has an item), and a game player.
 */
async function memberState(browser: Browser, url: string, admin: string, blocked: string) {
  const context = await browser.newContext(WITHOUT_SERVICE_WORKER);
  try {
    const page = await context.newPage();
    await signIn(page, url, admin);
    await page.evaluate(
      async ({ blockedId, country }) => {
        const send = async (path: string, body: unknown) => {
          const res = await fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (!res.ok) throw new Error(`${path}: ${res.status}`);
          return (await res.json()) as { id: string };
        };
        const feed = (await (await fetch('/api/lolgram/posts/feed')).json()) as { id: string }[];
        await send(`/api/lolgram/posts/${feed[0].id}/report`, { reason: 'spam' });
        await send(`/api/lolgram/posts/${feed[1].id}/save`, {});
        await send(`/api/lolgram/users/${blockedId}/block`, {});
        const player = await send('/api/users', { username: 'me_on_a_phone', country });
        const session = await send('/api/sessions', { userId: player.id });
        localStorage.setItem('tapgram.game.userId', player.id);
        localStorage.setItem('tapgram.game.sessionId', session.id);
      },
      { blockedId: blocked, country: MEMBER_COUNTRY },
    );
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** Posts by two authors, players on the boards, and the member's signed-in browser state. */
export async function seedSite(server: TestServer, browser: Browser): Promise<SeededSite> {
  const admin = await newAdmin(server);
  const ownPost = await seedOwnPost(server.url, admin);
  const posts = await seedPosts(server.url, [LONG_AUTHOR, 'memelord']);
  await feedHolds(server.url, posts.length + 1);
  await commentAndDelete(server.url, admin, ownPost.id);
  const blocked = await post(server.url, '/api/lolgram/users/create', {
    username: BLOCKED,
    password: PASSWORD,
  });
  const player = await seedPlayers(server.url);
  return {
    url: server.url,
    author: LONG_AUTHOR,
    post: posts[0],
    member: await memberState(browser, server.url, admin, blocked.body.id),
    ownPost,
    blocked: BLOCKED,
    player,
  };
}
