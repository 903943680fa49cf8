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
// The counts shrink for a smoke run (BENCH_POSTS=500 BENCH_COMMENTS=2000 BENCH_THREAD=100 ...).
const POSTS = Number(process.env.BENCH_POSTS ?? 10_000);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 100_000);
const THREAD = Number(process.env.BENCH_THREAD ?? 1_000);
const THREAD_PASSES = Number(process.env.BENCH_THREAD_PASSES ?? 20);
const THREAD_CONCURRENCY = 4;
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

/** Reads a whole thread page by page, `THREAD_PASSES` times, a few readers at once. */
async function pageThread(url: string, postId: string) {
  const latencies: number[] = [];
  let pages = 0;
  let pass = 0;
  await Promise.all(
    Array.from({ length: THREAD_CONCURRENCY }, async () => {
      while (pass < THREAD_PASSES) {
        pass += 1;
        let after: string | null = null;
        do {
          const query: string = after ? `&after=${after}` : '';
          const t0 = performance.now();
          const res = await fetch(`${url}/api/lolgram/posts/${postId}/comments?limit=20${query}`);
          if (res.status !== 200) throw new Error(`thread: ${res.status} ${await res.text()}`);
          const page = (await res.json()) as { nextCursor: string | null };
          latencies.push(performance.now() - t0);
          pages += 1;
          after = page.nextCursor;
        } while (after);
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

    console.log(`2b/3 feed with comments: seeding ${COMMENTS} comments, a thread of ${THREAD}`);
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
    `${CONNECTIONS} connections for ${SECONDS} s in (1), (2) and (2b); the feed is read anonymously (the viewer's LOLs are looked up per post when signed in). (2b) is (2) once the comments are in: each page carries the first two comments of each post, read for the whole page in one query. (2c) reads every page of one post's thread (${THREAD} comments, one in five a reply), ${THREAD_PASSES} times, ${THREAD_CONCURRENCY} readers at a time; the aim is under 20 ms at p99.`,
    'The upload runs the whole pipeline: header check (format, sides, area, decoded bytes), one decode to a bounded intermediate (rotated and shrunk on the way), full size, thumbnail and their WebP copies made from it, store; one image at a time per process (the image queue); the automatic moderation check runs after the answer.',
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
