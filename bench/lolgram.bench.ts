// The LOLGram benchmark: the feed read beside a bare Node GET, and the upload pipeline.
import pg from 'pg';
import sharp from 'sharp';
import { cannon, measureCeiling } from './lib/http-load';
import { startBackend } from './lib/processes';
import { scratchDatabase } from './lib/scratch-db';
import { printTable, writeReport, type Row } from './lib/report';
import { round, summarize } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const USERS = 1_000;
const POSTS = 10_000;
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 24);
const UPLOAD_CONCURRENCY = 4;

async function seed(db: pg.Client) {
  await db.query(
    `INSERT INTO lolgram_users (username, password_hash)
     SELECT 'bench_' || i, 'not-a-real-hash' FROM generate_series(1, $1) AS i`,
    [USERS],
  );
  await db.query(
    `INSERT INTO posts (user_id, caption, image_key, thumbnail_key, created_at, lol_count)
     SELECT u.id, 'bench post ' || i, 'posts/00000000-0000-0000-0000-000000000000/x-full.jpg',
            'posts/00000000-0000-0000-0000-000000000000/x-thumb.jpg', now() - i * interval '1 second', i % 50
       FROM generate_series(1, $1) AS i
       JOIN LATERAL (SELECT id FROM lolgram_users WHERE username = 'bench_' || (1 + i % $2)) u ON true`,
    [POSTS, USERS],
  );
  await db.query('ANALYZE');
}

/** A 4000x3000 photo-like JPEG: noise, so that it compresses like a real photo. */
function bigJpeg(): Promise<Buffer> {
  const noise = { type: 'gaussian', mean: 128, sigma: 40 } as const;
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function main() {
  const scratch = await scratchDatabase(DATABASE_URL);
  const id = scratch.name;
  const dbUrl = scratch.url;
  const rows: Row[] = [];

  console.log('1/3 ceiling: bare Node GET');
  const ceiling = await measureCeiling('(1) ceiling: bare Node JSON GET', {
    path: '/feed',
    connections: CONNECTIONS,
    seconds: SECONDS,
  });
  rows.push(ceiling);

  // One user uploads every image of (3): their hourly allowance must not stand in the way.
  const app = await startBackend(id, {
    DATABASE_URL: dbUrl,
    UPLOADS_PER_HOUR: String(Math.max(UPLOADS, 1)),
  });
  try {
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    console.log(`2/3 feed: seeding ${POSTS} posts by ${USERS} users`);
    await seed(db);
    await db.end();
    const feed = await cannon({
      url: `${app.url}/api/lolgram/posts/feed?limit=20`,
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    rows.push({
      name: `(2) GET /api/lolgram/posts/feed?limit=20, ${POSTS} posts`,
      figures: {
        'req/s': feed.requestsPerSecond,
        'p50 ms': feed.p50,
        'p99 ms': feed.p99,
        'ratio to (1)': round(feed.requestsPerSecond / ceiling.figures['req/s']),
        'non-2xx': feed.other,
      },
    });

    console.log(`3/3 upload pipeline: ${UPLOADS} posts of a 4000x3000 JPEG`);
    const signup = await fetch(`${app.url}/api/lolgram/users/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench_uploader', password: 'bench password' }),
    });
    if (signup.status !== 201)
      throw new Error(`sign-up: ${signup.status} ${await signup.clone().text()}`);
    const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0];
    if (signup.status !== 201)
      throw new Error(`sign-up: ${signup.status} ${await signup.clone().text()}`);
    const user = (await signup.json()) as { id: string };
    const image = await bigJpeg();
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: UPLOAD_CONCURRENCY }, async () => {
        while (next < UPLOADS) {
          next += 1;
          const form = new FormData();
          form.append('caption', 'a very large photo');
          form.append('userId', user.id);
          form.append(
            'image',
            new Blob([new Uint8Array(image)], { type: 'image/jpeg' }),
            'big.jpg',
          );
          const t0 = performance.now();
          const res = await fetch(`${app.url}/api/lolgram/posts`, {
            method: 'POST',
            body: form,
            headers: { cookie },
          });
          if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const upload = summarize(latencies);
    rows.push({
      name: `(3) POST /api/lolgram/posts, 4000x3000 JPEG (${round(image.length / 1e6, 1)} MB), ${UPLOAD_CONCURRENCY} at a time`,
      figures: {
        'posts/s': round(UPLOADS / elapsed),
        'p50 ms': round(upload.p50, 0),
        'p99 ms': round(upload.p99, 0),
      },
    });
  } finally {
    await app.stop();
    await scratch.drop();
  }

  printTable(rows);
  writeReport('lolgram', 'LOLGram', 'npm run bench', rows, [
    `${CONNECTIONS} connections for ${SECONDS} s in (1) and (2); the feed is read anonymously (the viewer's LOLs are looked up per post when signed in).`,
    'The upload runs the whole pipeline: header check (format, sides, area, decoded bytes), one decode to a bounded intermediate (rotated and shrunk on the way), full size, thumbnail and their WebP copies made from it, store; one image at a time per process (the image queue); the automatic moderation check runs after the answer.',
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
