// The LOLGram benchmark: the feed read beside a bare Node GET, the upload pipeline, and the
// notification fan-out of a storm of LOLs on one post.
import { createHash, randomBytes } from 'node:crypto';
import { LIVE_NAMESPACE } from '@tapgram/shared';
import pg from 'pg';
import { io } from 'socket.io-client';
import sharp from 'sharp';
import { cannon, measureCeiling } from './lib/http-load';
import { startBackend, type Child } from './lib/processes';
import { scratchDatabase } from './lib/scratch-db';
import { printTable, writeReport, type Row } from './lib/report';
import { round, summarize } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const USERS = 1_000;
// The counts shrink for a smoke run (BENCH_POSTS=500 BENCH_COMMENTS=2000 BENCH_THREAD=100 ...).
const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 100_000);
const THREAD = Number(process.env.BENCH_THREAD ?? 1_000);
const THREAD_PASSES = Number(process.env.BENCH_THREAD_PASSES ?? 20);
const THREAD_CONCURRENCY = 4;
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 24);
const UPLOAD_CONCURRENCY = 4;
/** (4): this many LOLs on one post, by as many users, spread evenly over this many seconds. */
const LOLS = Number(process.env.BENCH_LOLS ?? 1_000);
const LOL_SECONDS = Number(process.env.BENCH_LOL_SECONDS ?? 60);
/** After the last LOL: the longest a coalesced push may wait, and some. */
const PUSH_SETTLE_MS = 1_500;
const WARM_UP_LOLS = 50;

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

/** A user with a session, written straight to the database; answers its id and cookie. */
async function sessionUsers(db: pg.Client, prefix: string, count: number) {
  const tokens = Array.from({ length: count }, () => randomBytes(32).toString('base64url'));
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO lolgram_users (username, password_hash)
     SELECT $1 || i, 'not-a-real-hash' FROM generate_series(1, $2) AS i ORDER BY i RETURNING id`,
    [prefix, count],
  );
  await db.query(
    `INSERT INTO auth_sessions (id, user_id, auth_method, expires_at)
     SELECT unnest($1::text[]), unnest($2::uuid[]), 'password', now() + interval '1 day'`,
    [tokens.map((t) => createHash('sha256').update(t).digest('hex')), rows.map((r) => r.id)],
  );
  return rows.map((row, i) => ({ id: row.id, cookie: `lg_session=${tokens[i]}` }));
}

/**
 * (4): LOLS users LOL one post over LOL_SECONDS, paced evenly, while its author listens on the
 * live channel: the LOL call's latency, the server's CPU, the notification rows and the pushes.
 */
async function lolStorm(
  app: Child,
  db: pg.Client,
  run: string,
  notifications: boolean,
): Promise<Row> {
  const [author] = await sessionUsers(db, `bench_${run}_author_`, 1);
  const fans = await sessionUsers(db, `bench_${run}_fan_`, LOLS);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO posts (user_id, caption, image_key, thumbnail_key)
     VALUES ($1, 'storm', 'posts/00000000-0000-0000-0000-000000000000/x-full.jpg',
             'posts/00000000-0000-0000-0000-000000000000/x-thumb.jpg') RETURNING id`,
    [author.id],
  );
  const postId = rows[0].id;
  // A fresh process is warmed up first: a few LOLs on a post of its own, not counted.
  const warm = await sessionUsers(db, `bench_${run}_warm_`, WARM_UP_LOLS);
  const { rows: warmPost } = await db.query<{ id: string }>(
    `INSERT INTO posts (user_id, caption, image_key, thumbnail_key)
     VALUES ($1, 'warm-up', 'posts/00000000-0000-0000-0000-000000000000/x-full.jpg',
             'posts/00000000-0000-0000-0000-000000000000/x-thumb.jpg') RETURNING id`,
    [warm[0].id],
  );
  for (const fan of warm) {
    await fetch(`${app.url}/api/lolgram/posts/${warmPost[0].id}/lol`, {
      method: 'POST',
      headers: { cookie: fan.cookie },
    }).then((res) => res.arrayBuffer());
  }
  const socket = io(`${app.url}${LIVE_NAMESPACE}`, {
    transports: ['websocket'],
    extraHeaders: { Cookie: author.cookie },
    reconnection: false,
    forceNew: true,
  });
  let pushes = 0;
  socket.on('notifications', () => {
    pushes += 1;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const latencies: number[] = [];
  let failed = 0;
  const cpuBefore = app.cpuSeconds();
  const started = performance.now();
  const interval = (LOL_SECONDS * 1000) / LOLS;
  await Promise.all(
    fans.map(async (fan, i) => {
      const wait = started + i * interval - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = performance.now();
      const res = await fetch(`${app.url}/api/lolgram/posts/${postId}/lol`, {
        method: 'POST',
        headers: { cookie: fan.cookie },
      });
      await res.arrayBuffer();
      if (res.status === 200) latencies.push(performance.now() - t0);
      else failed += 1;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, PUSH_SETTLE_MS));
  const cpu = app.cpuSeconds() - cpuBefore;
  socket.disconnect();
  const written = await db.query<{ rows: number; actors: number | null }>(
    'SELECT count(*)::int AS rows, max(actor_count) AS actors FROM notifications WHERE user_id = $1',
    [author.id],
  );
  const lol = summarize(latencies);
  return {
    name: `(4${notifications ? 'a' : 'b'}) ${LOLS} LOLs on one post in ${LOL_SECONDS} s, notifications ${notifications ? 'on' : 'off (NOTIFICATIONS=off)'}`,
    figures: {
      'p50 ms': round(lol.p50, 1),
      'p99 ms': round(lol.p99, 1),
      'CPU s': round(cpu, 2),
      'rows written': written.rows[0].rows,
      'actors counted': written.rows[0].actors ?? 0,
      'pushes sent': pushes,
      'non-2xx': failed,
    },
  };
}

/**
 * `COMMENTS` public comments spread over the posts (one in five a reply to the comment before it
 * on the same post), with the posts' counts; answers the post that gets a thread of `THREAD`.
 */
async function seedComments(db: pg.Client): Promise<string> {
  const spread = Math.max(0, COMMENTS - THREAD);
  await db.query(
    `WITH p AS (SELECT array_agg(id ORDER BY created_at DESC) AS a FROM posts),
          u AS (SELECT array_agg(id) AS a FROM lolgram_users)
     INSERT INTO post_comments (post_id, user_id, thread_seq, body, status, created_at)
     SELECT p.a[2 + i % (array_length(p.a, 1) - 1)], u.a[1 + i % array_length(u.a, 1)], 0,
            'bench comment ' || i, 'visible', now() - interval '1 hour' + i * interval '1 ms'
       FROM generate_series(1, $1) AS i, p, u`,
    [spread],
  );
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM posts ORDER BY created_at DESC LIMIT 1',
  );
  const threadPost = rows[0].id;
  await db.query(
    `WITH u AS (SELECT array_agg(id) AS a FROM lolgram_users)
     INSERT INTO post_comments (post_id, user_id, thread_seq, body, status, created_at)
     SELECT $2, u.a[1 + i % array_length(u.a, 1)], 0, 'thread comment ' || i, 'visible',
            now() - interval '1 hour' + i * interval '1 ms'
       FROM generate_series(1, $1) AS i, u`,
    [THREAD, threadPost],
  );
  await db.query('UPDATE post_comments SET thread_seq = seq');
  // One in five becomes a reply to the comment written just before it on its post.
  await db.query(
    `UPDATE post_comments c SET parent_id = prev.id, thread_seq = prev.seq
       FROM (SELECT id, seq, lag(id) OVER w AS prev_id, lag(seq) OVER w AS prev_seq,
                    row_number() OVER w AS n
               FROM post_comments WINDOW w AS (PARTITION BY post_id ORDER BY seq)) x
       JOIN post_comments prev ON prev.id = x.prev_id
      WHERE c.id = x.id AND x.n % 5 = 0 AND prev.parent_id IS NULL`,
  );
  await db.query(
    `UPDATE posts p SET comment_count = c.n
       FROM (SELECT post_id, count(*)::int AS n FROM post_comments GROUP BY post_id) c
      WHERE c.post_id = p.id`,
  );
  await db.query('ANALYZE');
  return threadPost;
}

/**
 * Reads a whole thread page by page, `THREAD_PASSES` times, a few readers at once, after one pass
 * by each reader that is not measured (a running server has compiled the route's code long since).
 */
async function pageThread(url: string, postId: string) {
  const latencies: number[] = [];
  let pages = 0;
  const readThread = async (measured: boolean) => {
    let after: string | null = null;
    do {
      const query: string = after ? `&after=${after}` : '';
      const t0 = performance.now();
      const res = await fetch(`${url}/api/lolgram/posts/${postId}/comments?limit=20${query}`);
      if (res.status !== 200) throw new Error(`thread: ${res.status} ${await res.text()}`);
      const page = (await res.json()) as { nextCursor: string | null };
      if (measured) {
        latencies.push(performance.now() - t0);
        pages += 1;
      }
      after = page.nextCursor;
    } while (after);
  };
  await Promise.all(Array.from({ length: THREAD_CONCURRENCY }, () => readThread(false)));
  let pass = 0;
  await Promise.all(
    Array.from({ length: THREAD_CONCURRENCY }, async () => {
      while (pass < THREAD_PASSES) {
        pass += 1;
        await readThread(true);
      }
    }),
  );
  return { ...summarize(latencies), pages };
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

  console.log('1/4 ceiling: bare Node GET');
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
    console.log(`2/4 feed: seeding ${POSTS} posts by ${USERS} users`);
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

    console.log(`2b/4 feed with comments: seeding ${COMMENTS} comments, a thread of ${THREAD}`);
    const seeding = new pg.Client({ connectionString: dbUrl });
    await seeding.connect();
    const threadPost = await seedComments(seeding);
    await seeding.end();
    const commented = await cannon({
      url: `${app.url}/api/lolgram/posts/feed?limit=20`,
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    rows.push({
      name: `(2b) GET /api/lolgram/posts/feed?limit=20, ${POSTS} posts and ${COMMENTS} comments (first two per card)`,
      figures: {
        'req/s': commented.requestsPerSecond,
        'p50 ms': commented.p50,
        'p99 ms': commented.p99,
        'ratio to (1)': round(commented.requestsPerSecond / ceiling.figures['req/s']),
        'non-2xx': commented.other,
      },
    });
    const thread = await pageThread(app.url, threadPost);
    rows.push({
      name: `(2c) GET /api/lolgram/posts/:id/comments?limit=20, a thread of ${THREAD} paged to its end, ${THREAD_CONCURRENCY} readers`,
      figures: {
        pages: thread.pages,
        'p50 ms': round(thread.p50, 1),
        'p99 ms': round(thread.p99, 1),
      },
    });

    console.log(`3/4 upload pipeline: ${UPLOADS} posts of a 4000x3000 JPEG`);
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

    console.log(
      `4/4 notification fan-out: ${LOLS} LOLs on one post in ${LOL_SECONDS} s, on and off`,
    );
    const storm = new pg.Client({ connectionString: dbUrl });
    await storm.connect();
    try {
      rows.push(await lolStorm(app, storm, 'on', true));
      // The same run on a backend that writes and pushes no notifications.
      const quiet = await startBackend(`${id}-quiet`, {
        DATABASE_URL: dbUrl,
        NOTIFICATIONS: 'off',
      });
      try {
        rows.push(await lolStorm(quiet, storm, 'off', false));
      } finally {
        await quiet.stop();
      }
    } finally {
      await storm.end();
    }
  } finally {
    await app.stop();
    await scratch.drop();
  }

  printTable(rows);
  writeReport('lolgram', 'LOLGram', 'npm run bench', rows, [
    `${CONNECTIONS} connections for ${SECONDS} s in (1) and (2); the feed is read anonymously (the viewer's LOLs are looked up per post when signed in).`,
    `(4) paces ${LOLS} LOLs by ${LOLS} users evenly over ${LOL_SECONDS} s on one post while its author listens on the live channel: the LOL call's latency, the server's CPU over the run, the notification rows written and the pushes the author received; (4b) is the same run on a backend started with NOTIFICATIONS=off.`,
    `${CONNECTIONS} connections for ${SECONDS} s in (1), (2) and (2b); the feed is read anonymously (the viewer's LOLs are looked up per post when signed in). (2b) is (2) once the comments are in: each page carries the first two comments of each post, read for the whole page in one query. (2c) reads every page of one post's thread (${THREAD} comments, one in five a reply), ${THREAD_PASSES} times, ${THREAD_CONCURRENCY} readers at a time, after one unmeasured pass by each reader; the aim is under 20 ms at p99.`,
    'The upload runs the whole pipeline: header check (format, sides, area, decoded bytes), one decode to a bounded intermediate (rotated and shrunk on the way), full size, thumbnail and their WebP copies made from it, store; one image at a time per process (the image queue); the automatic moderation check runs after the answer.',
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
