// Other users' answers (a tap, an image, a feed page) while sign-ups flood the server.
// Run: npx tsx bench/signup-flood.bench.ts (loopback only; bounded, well under a minute).
// BENCH_SERVER_ROOT=<another checkout> runs that checkout's backend instead (a before/after
// comparison; then nothing is written), with BENCH_TRUST_PROXY for its TRUST_PROXY syntax.
import fs from 'node:fs/promises';
import sharp from 'sharp';
import { createPlayers, type BenchPlayer } from './lib/game-load';
import { ROOT, SERVER_NODE_FLAGS, startChild } from './lib/processes';
import { printTable, writeReport, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';
import { round, summarize } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SERVER_ROOT = process.env.BENCH_SERVER_ROOT ?? ROOT;
const TRUST_PROXY = process.env.BENCH_TRUST_PROXY ?? '1';
const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_SIGNUP_CONCURRENCY ?? 16);
const CALM_ROUNDS = 200;
const PLAYERS = 10;
/** Other users reading and tapping at the same time, each one request after another. */
const PROBERS = 4;

type Probe = 'tap' | 'image' | 'feed';

interface Site {
  url: string;
  players: BenchPlayer[];
  imageUrl: string;
  cookie: string;
}

/** One reader's account with an avatar: the image the probe reads. */
async function makeReader(url: string): Promise<{ imageUrl: string; cookie: string }> {
  const signup = await fetch(`${url}/api/lolgram/users/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.1' },
    body: JSON.stringify({ username: 'bench_reader', password: 'bench password' }),
  });
  if (signup.status !== 201) throw new Error(`sign-up: ${signup.status} ${await signup.text()}`);
  const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0];
  const user = (await signup.json()) as { id: string };
  const jpeg = await sharp({
    create: { width: 256, height: 256, channels: 3, background: '#f43f5e' },
  })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('avatar', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'me.jpg');
  const res = await fetch(`${url}/api/lolgram/users/${user.id}/avatar`, {
    method: 'PUT',
    body: form,
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`avatar: ${res.status} ${await res.text()}`);
  const { user: updated } = (await res.json()) as { user: { avatar: string } };
  return { imageUrl: `${url}${updated.avatar}`, cookie };
}

/** Times requests of each kind one after another until `stop.done` (or `rounds` are done). */
async function probe(site: Site, stop: { done: boolean }, rounds = Infinity) {
  const samples: Record<Probe, number[]> = { tap: [], image: [], feed: [] };
  const failures: Record<Probe, number> = { tap: 0, image: 0, feed: 0 };
  const timed = async (kind: Probe, request: () => Promise<Response>) => {
    const started = performance.now();
    const res = await request();
    await res.arrayBuffer();
    samples[kind].push(performance.now() - started);
    if (!res.ok) failures[kind] += 1;
  };
  for (let round = 0; round < rounds && !stop.done; round += 1) {
    const player = site.players[round % site.players.length];
    await timed('tap', () =>
      fetch(`${site.url}/api/tap`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: player.cookie },
        body: JSON.stringify({
          userId: player.userId,
          sessionId: player.sessionId,
          pointsPerTap: 1,
        }),
      }),
    );
    await timed('image', () => fetch(site.imageUrl, { headers: { cookie: site.cookie } }));
    await timed('feed', () => fetch(`${site.url}/api/lolgram/posts/feed?limit=20`));
  }
  return { samples, failures };
}

/** SIGNUPS sign-ups, CONCURRENCY at a time, each from `address(i)`; answers tallied by status. */
async function flood(url: string, prefix: string, address: (i: number) => string) {
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SIGNUPS) {
        const i = (next += 1);
        const res = await fetch(`${url}/api/lolgram/users/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address(i) },
          body: JSON.stringify({ username: `${prefix}_${i}`, password: 'flood password' }),
        });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  return { statuses, seconds: (performance.now() - started) / 1000 };
}

function merge(results: Awaited<ReturnType<typeof probe>>[]): Awaited<ReturnType<typeof probe>> {
  const kinds = ['tap', 'image', 'feed'] as const;
  return {
    samples: Object.fromEntries(
      kinds.map((kind) => [kind, results.flatMap((r) => r.samples[kind])]),
    ) as Record<Probe, number[]>,
    failures: Object.fromEntries(
      kinds.map((kind) => [kind, results.reduce((sum, r) => sum + r.failures[kind], 0)]),
    ) as Record<Probe, number>,
  };
}

function probeRows(label: string, result: Awaited<ReturnType<typeof probe>>): Row[] {
  return (['tap', 'image', 'feed'] as const).map((kind) => {
    const s = summarize(result.samples[kind]);
    return {
      name: `${label}: ${kind}`,
      figures: {
        n: s.count,
        'p50 ms': s.p50,
        'p99 ms': s.p99,
        'max ms': s.max,
        'non-2xx': result.failures[kind],
      },
    };
  });
}

async function duringFlood(
  site: Site,
  label: string,
  prefix: string,
  address: (i: number) => string,
) {
  const stop = { done: false };
  const probing = Promise.all(Array.from({ length: PROBERS }, () => probe(site, stop)));
  const result = await flood(site.url, prefix, address);
  stop.done = true;
  const rows = probeRows(label, merge(await probing));
  rows.unshift({
    name: `${label}: ${SIGNUPS} sign-ups, ${CONCURRENCY} at a time`,
    figures: {
      'sign-ups/s': round(SIGNUPS / result.seconds),
      ...Object.fromEntries(Object.entries(result.statuses).map(([s, n]) => [`HTTP ${s}`, n])),
    },
  });
  return rows;
}

async function main() {
  const scratch = await scratchDatabase(DATABASE_URL);
  const app = await startChild(
    [...SERVER_NODE_FLAGS, '--import', 'tsx', 'backend/src/main.ts'],
    {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: scratch.url,
      LOG_LEVEL: 'warn',
      DATA_DIR: `/tmp/${scratch.name}`,
      TRUST_PROXY,
      MODERATION_IMAGE_CHECK: 'off',
      // The probe's taps are timed, never refused by the per-player tap rate.
      TAP_RATE_PER_SECOND: '1000',
      TAP_BURST: '1000',
    },
    SERVER_ROOT,
  );
  const rows: Row[] = [];
  try {
    const reader = await makeReader(app.url);
    const site: Site = {
      url: app.url,
      players: await createPlayers(app.url, PLAYERS, 'calm'),
      ...reader,
    };
    console.log('1/3 calm: no sign-ups');
    const calm = Array.from({ length: PROBERS }, () => probe(site, { done: false }, CALM_ROUNDS));
    rows.push(...probeRows('calm', merge(await Promise.all(calm))));
    console.log(`2/3 ${SIGNUPS} sign-ups from as many addresses (X-Forwarded-For)`);
    rows.push(
      ...(await duringFlood(
        site,
        'many addresses',
        'many',
        (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      )),
    );
    console.log(`3/3 ${SIGNUPS} sign-ups from one address`);
    rows.push(...(await duringFlood(site, 'one address', 'one', () => '198.51.100.99')));
  } finally {
    await app.stop();
    await scratch.drop();
    await fs.rm(`/tmp/${scratch.name}`, { recursive: true, force: true });
  }
  printTable(rows);
  if (SERVER_ROOT === ROOT) {
    writeReport(
      'signup-flood',
      'Other users during a sign-up flood',
      'npx tsx bench/signup-flood.bench.ts',
      rows,
      [
        `${PROBERS} clients each time a tap (POST /api/tap), an avatar image and a feed page one after another, alone (${CALM_ROUNDS} rounds) and while sign-ups run.`,
        'Sign-ups are limited per client address (SIGNUPS_PER_HOUR) and password hashes are bounded per process (2 computing, 32 waiting, the rest 503).',
      ],
    );
  }
}

await main();
