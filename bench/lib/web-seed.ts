// What the web benchmarks show: LOLGram posts with photo-like images and game players with
// points, made through the API as users would.
import sharp from 'sharp';
import { createPlayers } from './game-load';

export const SEED_POSTS = 15;
export const SEED_AUTHORS = 3;
export const SEED_PLAYERS = 12;

/** What the pages were seeded with, as the reports say it. */
export const SEEDED = `${SEED_POSTS} LOLGram posts with 1600x1200 photo-like JPEGs by ${SEED_AUTHORS} authors (visible after the automatic moderation check, image check on) and ${SEED_PLAYERS} game players with points`;

const CAPTIONS = [
  'when the build passes on the first try',
  'my cat reviewing my pull request',
  'Monday morning stand-up energy',
  'the printer knows when you are in a hurry',
  'me explaining the bug I wrote',
  'a sandwich that has seen things',
];

/** A 1600x1200 photo-like JPEG: soft shapes on a gradient under grain, about as dense as a photo. */
async function photo(i: number): Promise<Buffer> {
  const hue = (i * 47) % 360;
  const shapes = Array.from({ length: 6 }, (_, k) => {
    const x = (i * 211 + k * 263) % 1600;
    const y = (i * 97 + k * 181) % 1200;
    const r = 80 + (((i + k) * 53) % 260);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${(hue + k * 40) % 360},65%,${35 + k * 7}%)" fill-opacity="0.75"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,62%)"/>
      <stop offset="1" stop-color="hsl(${(hue + 140) % 360},55%,28%)"/>
    </linearGradient></defs>
    <rect width="1600" height="1200" fill="url(#g)"/>${shapes}</svg>`;
  const grain = await sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 24 },
    },
  })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function signUp(url: string, username: string): Promise<{ id: string; cookie: string }> {
  const res = await fetch(`${url}/api/lolgram/users/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'bench password' }),
  });
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const user = (await res.json()) as { id: string };
  return { id: user.id, cookie };
}

/** Posts through the API as their authors would, then waits until the feed shows them all. */
export async function seedLolgram(url: string) {
  const authors = [];
  for (let a = 0; a < SEED_AUTHORS; a += 1) authors.push(await signUp(url, `web_bench_${a}`));
  for (let i = 0; i < SEED_POSTS; i += 1) {
    const author = authors[i % SEED_AUTHORS];
    const form = new FormData();
    form.append('caption', CAPTIONS[i % CAPTIONS.length]);
    form.append('userId', author.id);
    form.append(
      'image',
      new Blob([new Uint8Array(await photo(i))], { type: 'image/jpeg' }),
      'photo.jpg',
    );
    const res = await fetch(`${url}/api/lolgram/posts`, {
      method: 'POST',
      body: form,
      headers: { cookie: author.cookie },
    });
    if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`);
  }
  // The automatic moderation check runs after each answer; a post shows once it has passed.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`${url}/api/lolgram/posts/feed?limit=20`);
    const feed = (await res.json()) as unknown[];
    if (feed.length >= SEED_POSTS) return;
    if (Date.now() > deadline)
      throw new Error(`only ${feed.length} of ${SEED_POSTS} posts became visible in the feed`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A few players with points, so that the boards of /play and /leaderboard have rows. */
export async function seedGame(url: string) {
  const players = await createPlayers(url, SEED_PLAYERS, 'web');
  const deadline = Date.now() + 60_000;
  await Promise.all(
    players.map(async (player, i) => {
      for (let t = 0; t <= i;) {
        const res = await fetch(`${url}/api/tap`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: player.cookie },
          body: JSON.stringify({
            userId: player.userId,
            sessionId: player.sessionId,
            pointsPerTap: 1,
          }),
        });
        // A busy server (a cold database at start) refuses with 503 and Retry-After: ask again.
        if (res.status === 503 && Date.now() < deadline) {
          await res.arrayBuffer();
          const seconds = Number(res.headers.get('retry-after')) || 1;
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          continue;
        }
        if (!res.ok) throw new Error(`tap: ${res.status} ${await res.text()}`);
        t += 1;
      }
    }),
  );
}
