import sharp from 'sharp';
import type { CDPSession, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, shoot } from './browser';
import { MEMBER_COUNTRY, PHONE_HEIGHT } from './seed';
import { memberPlaying, seededSuite, until } from './setup';

const executable = chromiumPath();
const PHONE = 360;
const FEED_PAGE = '/api/lolgram/posts/feed?limit=20';

/** Each public page the build renders ahead, and a text of its own shell. */
const SHELLS: [path: string, shell: (page: Page) => Locator][] = [
  ['/', (page) => page.getByRole('link', { name: 'Play the game' })],
  ['/play', (page) => page.getByRole('button', { name: 'Tap the character to earn a point' })],
  ['/leaderboard', (page) => page.getByRole('heading', { name: 'TapGram Live Leaderboard' })],
  ['/lolgram', (page) => page.getByRole('heading', { name: 'LOLGram' })],
];

/** What shows that a page has been hydrated and has run its effects, for a visitor and a member. */
const HYDRATED: Record<string, (page: Page, as: 'visitor' | 'member') => Locator> = {
  '/play': (page, as) =>
    as === 'visitor'
      ? page.getByRole('dialog')
      : page.getByTestId('stat-Country').getByText(MEMBER_COUNTRY),
  '/leaderboard': (page) => page.getByRole('status').getByText('Live'),
  '/lolgram': (page, as) =>
    as === 'visitor'
      ? page.getByRole('article').first()
      : page.getByRole('button', { name: 'Your profile' }),
};

/**
 * Every error the page reports, and how many nodes React removed from the root: hydration that
 * fails throws the server's markup away and renders again, which a mismatch error announces.
 */
async function watchHydration(
  page: Page,
): Promise<() => Promise<{ errors: string[]; removed: number }>> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.addInitScript(() => {
    const counts = window as unknown as { removedFromRoot: number };
    counts.removedFromRoot = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        if ((record.target as Element).id === 'root')
          counts.removedFromRoot += record.removedNodes.length;
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return async () => ({
    errors,
    removed: await page.evaluate(
      () => (window as unknown as { removedFromRoot: number }).removedFromRoot,
    ),
  });
}

/** Two animation frames: what the last input changed (a scroll, say) has been painted. */
const frames = (page: Page) =>
  page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );

/** A finger put down at (x, y), moved `dy` px in steps, and lifted. */
async function drag(cdp: CDPSession, x: number, y: number, dy: number) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let step = 1; step <= 8; step += 1) {
    const point = { x, y: y + (dy * step) / 8 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** The side of a PNG, read from its own bytes. */
async function pngSize(bytes: Buffer): Promise<string> {
  const { format, width, height } = await sharp(bytes).metadata();
  return `${format} ${width}x${height}`;
}

describe.runIf(executable)('the app on a phone: painted first, installable, offline', () => {
  const suite = seededSuite(executable!);
  const { open } = suite;

  it('paints the layout and texts of each public page before any script runs', async () => {
    const page = await open(PHONE, 'visitor', { javaScriptEnabled: false });
    for (const [path, shell] of SHELLS) {
      await page.goto(path);
      expect(await shell(page).isVisible(), path).toBe(true);
      await shoot(page, `phone-no-script-${path.slice(1) || 'home'}`);
    }
  });

  it.each(['visitor', 'member'] as const)(
    'hydrates each public page without a mismatch, for a %s',
    async (as) => {
      const page = await open(PHONE, as);
      // What a member's browser holds that the build could not know: the sound off.
      if (as === 'member')
        await page.addInitScript(() => localStorage.setItem('tapgram.game.sound', 'false'));
      const report = await watchHydration(page);
      for (const [path] of SHELLS) {
        // LOLGram checks a stored sign-in with the server as it opens; a navigation that cuts the
        // check short (its answer not yet read) counts as a failed check, which signs the browser
        // out: the answer is let arrive whole.
        const checked =
          as === 'member' && path === '/lolgram'
            ? page.waitForResponse((answer) => answer.url().endsWith('/api/lolgram/users/me'))
            : null;
        await page.goto(path);
        if (path === '/') {
          // Hydrated: a link goes to its page within the page, which a marker survives.
          await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
          await page.getByRole('link', { name: 'Watch the live leaderboard' }).click();
          await until(() => page.evaluate(() => location.pathname)).toBe('/leaderboard');
          expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(
            true,
          );
        } else {
          const hydrated = HYDRATED[path](page, as);
          await expect
            .poll(() => hydrated.isVisible(), { timeout: 20_000, message: `${path} hydrated` })
            .toBe(true);
        }
        await (await checked)?.finished();
      }
      // The address's own tab, which the HTML of /lolgram (the feed's) does not show.
      if (as === 'member') {
        await page.goto('/lolgram?tab=profile');
        const edit = page.getByRole('button', { name: 'Edit Profile' });
        await expect
          .poll(() => edit.isVisible(), { timeout: 20_000, message: 'the profile tab' })
          .toBe(true);
      }
      expect(await report()).toEqual({ errors: [], removed: 0 });
    },
  );

  it("has the character, in the HTML of /play, as the page's largest paint; the welcome dialog that comes after is smaller", async () => {
    const page = await open(PHONE, 'visitor');
    await page.goto('/play');
    await until(() => page.getByRole('dialog').isVisible()).toBe(true);
    await frames(page);
    // The paints so far, the largest last, as the browser reports them to a new observer.
    const largest = await page.evaluate(
      () =>
        new Promise<string>((done) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as unknown as { element: Element | null }[];
            const element = entries.at(-1)?.element;
            done(
              element?.closest('[data-testid="tap-character"]')
                ? 'the character'
                : `${element?.tagName}`,
            );
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    expect(largest).toBe('the character');
  });

  it('keeps a click made before the page has hydrated, and answers it once it has', async () => {
    const page = await open(PHONE, 'visitor');
    // LOLGram's code is held back until the click has been made on its HTML.
    let clicked = () => {};
    const click = new Promise<void>((done) => (clicked = done));
    await page.route('**/assets/LolgramPage-*.js', async (route) => {
      await click;
      await route.continue();
    });
    await page.goto('/lolgram', { waitUntil: 'domcontentloaded' });
    await page.getByRole('button', { name: 'Login / Sign Up' }).first().click();
    clicked();
    await until(() => page.getByRole('dialog').getByLabel('Username').isVisible()).toBe(true);
  });

  it("keeps a tap on LOLGram's bottom tab made before the page has hydrated", async () => {
    const page = await open(PHONE, 'visitor');
    let tapped = () => {};
    const tap = new Promise<void>((done) => (tapped = done));
    await page.route('**/assets/LolgramPage-*.js', async (route) => {
      await tap;
      await route.continue();
    });
    await page.goto('/lolgram', { waitUntil: 'domcontentloaded' });
    const profile = page.getByRole('tab', { name: 'Profile' });
    // The middle of the tab: its icon, an SVG element.
    await profile.tap();
    tapped();
    await until(() => profile.getAttribute('aria-selected')).toBe('true');
    await until(() => page.url()).toMatch(/\/lolgram\?tab=profile$/);
  });

  it('counts the taps a finger makes on the character before the page has hydrated', async () => {
    const page = await open(PHONE, 'member');
    // The game's code is held back until the character, in the page's HTML, has been tapped.
    let tapped = () => {};
    const taps = new Promise<void>((done) => (tapped = done));
    await page.route('**/assets/GamePage-*.js', async (route) => {
      await taps;
      await route.continue();
    });
    await page.goto('/play', { waitUntil: 'domcontentloaded' });
    const character = page.getByTestId('tap-character');
    await character.waitFor();
    const box = (await character.boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    for (let i = 0; i < 3; i += 1) {
      const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    }
    tapped();
    await memberPlaying(page);
    await until(() => page.getByTestId('stat-Session').textContent()).toBe('3');
  });

  it("asks for LOLGram's first page of posts once, with the HTML, and its first photo first", async () => {
    const page = await open(PHONE, 'visitor');
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(FEED_PAGE)) asked.push(request.url());
    });
    await page.goto('/lolgram');
    const first = page.getByRole('article').first();
    await until(() => first.isVisible()).toBe(true);
    // The page's own request took the preloaded answer: no second one was made.
    expect(asked).toHaveLength(1);
    const [newest] = (await (await page.request.get(FEED_PAGE)).json()) as { caption: string }[];
    const photo = first.getByRole('img', { name: newest.caption, exact: true });
    expect(await photo.getAttribute('fetchpriority')).toBe('high');
  });

  it('offers a manifest to install the game with, and icons of the sizes it names', async () => {
    const page = await open(PHONE, 'visitor', { serviceWorkers: 'allow' });
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const answer = await page.request.get(href!);
    expect(answer.headers()['content-type']).toMatch(/application\/manifest\+json/);
    const manifest = (await answer.json()) as {
      icons: { src: string; sizes: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'TapGram',
      short_name: 'TapGram',
      start_url: '/play',
      scope: '/',
      display: 'standalone',
      theme_color: '#020617',
      background_color: '#020617',
    });
    const icons = [];
    for (const icon of manifest.icons) {
      const image = await page.request.get(icon.src);
      expect(image.status(), icon.src).toBe(200);
      icons.push(`${icon.purpose ?? 'any'} ${icon.sizes} ${await pngSize(await image.body())}`);
    }
    expect(icons.sort()).toEqual([
      'any 192x192 png 192x192',
      'any 512x512 png 512x512',
      'maskable 512x512 png 512x512',
    ]);
    // Chromium's own verdict: nothing keeps the game from being installed (but the test's
    // private profile, which a phone's browser is not).
    const cdp = await page.context().newCDPSession(page);
    const installability = async () =>
      (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors
        .map((error) => error.errorId)
        .filter((id) => id !== 'in-incognito');
    await until(installability).toEqual([]);
  });

  it('opens the game and the other pages with no network once its service worker runs, and caches no call to the server', async () => {
    const page = await open(PHONE, 'member', { serviceWorkers: 'allow' });
    await page.goto('/play');
    await memberPlaying(page);
    // The worker takes the page over once it has cached the app.
    await until(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const cached = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) {
          paths.push(new URL(request.url).pathname);
        }
      }
      return paths;
    });
    expect(cached).toEqual(
      expect.arrayContaining(['/index.html', '/play', '/leaderboard', '/lolgram', '/app.html']),
    );
    expect(
      cached.filter((path) => /^\/(api|socket\.io|metrics|healthz|readyz)(\/|$)/.test(path)),
    ).toEqual([]);

    await page.context().setOffline(true);
    await page.reload();
    await until(() =>
      page.getByRole('button', { name: 'Tap the character to earn a point' }).isVisible(),
    ).toBe(true);
    expect(await page.locator('#root').getAttribute('data-prerendered')).toBe('/play');
    // The player last shown plays on: the taps wait on the device, and the screen says so.
    await memberPlaying(page);
    await page.getByTestId('tap-character').click();
    await until(() => page.getByTestId('tap-status').getAttribute('data-state')).toBe('offline');
    expect(await page.getByTestId('tap-status').textContent()).toContain('1 tap waiting');
    // Calls to the server are never answered from a cache.
    expect(
      await page.evaluate(() =>
        fetch('/api/milestone/100k').then(
          () => 'answered',
          () => 'failed',
        ),
      ),
    ).toBe('failed');
    await shoot(page, 'phone-offline-play');

    for (const [path, shell] of SHELLS.filter(([path]) => path !== '/play')) {
      await page.goto(path);
      await until(() => shell(page).isVisible()).toBe(true);
    }
    // Another page of the app: the plain shell, and the app renders it.
    await page.goto(`/lolgram/${suite.site.author}`);
    await until(() =>
      page.getByRole('heading', { name: `@${suite.site.author}` }).isVisible(),
    ).toBe(true);
  });

  it('keeps the page still while a finger drags on the character, and counts two fingers as two taps', async () => {
    const page = await open(PHONE, 'member');
    await page.goto('/play');
    await memberPlaying(page);
    const session = page.getByTestId('stat-Session');
    const box = (await page.getByTestId('tap-character').boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    const cdp = await page.context().newCDPSession(page);
    await page.evaluate(() => {
      const state = window as unknown as { phase: string; scrolledIn?: string };
      state.phase = 'on the character';
      addEventListener('scroll', () => (state.scrolledIn ??= state.phase));
    });

    await drag(cdp, x, y, -80);
    await until(() => session.textContent()).toBe('1');
    await frames(page);
    // The same drag beside the character scrolls the page: the first scroll comes from it.
    await page.evaluate(() => ((window as unknown as { phase: string }).phase = 'beside it'));
    await drag(cdp, box.x / 2, Math.min(y, PHONE_HEIGHT - 100), -80);
    await until(() =>
      page.evaluate(() => (window as unknown as { scrolledIn?: string }).scrolledIn),
    ).toBe('beside it');

    await page.evaluate(() => scrollTo(0, 0));
    const top = (await page.getByTestId('tap-character').boundingBox())!;
    const twoFingers = [
      { x: top.x + top.width * 0.35, y: top.y + top.height / 2, id: 1 },
      { x: top.x + top.width * 0.65, y: top.y + top.height / 2, id: 2 },
    ];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: twoFingers });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await until(() => session.textContent()).toBe('3');
  });

  it("keeps the story's chapter and choices on the device across a reload", async () => {
    const page = await open(PHONE, 'member');
    await page.goto('/play');
    await memberPlaying(page);
    const story = page.getByRole('region', { name: 'The Cultural Evolution Saga' });
    const toStory = () => page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await toStory();
    const option = story.getByRole('listitem').first().getByRole('button');
    await until(() => option.isVisible()).toBe(true);
    const choice = (await option.textContent())!;
    await option.click();
    await until(() => story.getByText('2 / 8').isVisible()).toBe(true);

    await page.reload();
    await toStory();
    await until(() => story.getByText('2 / 8').isVisible()).toBe(true);
    expect(await story.getByRole('list', { name: 'Choices made' }).textContent()).toContain(choice);
  });
});
