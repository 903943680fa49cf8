// An image bomb within the pixel cap (a 40,000 x 1,000 RGBA PNG of about 150 kB) and the largest
// image the server accepts (8,000 x 5,000 RGBA PNG, plain and interlaced): the time of one and of four uploads at once,
// the server's peak RSS while they run, and its RSS ten seconds after. Each case runs on a server
// of its own, started as `npm start` starts it (embedded Postgres, the image check on).
// Run: npx tsx bench/image-bomb.bench.ts (loopback only; a few minutes on a busy machine).
// BENCH_SERVER_ROOT=<another checkout> runs that checkout's backend instead (a before/after
// comparison; then nothing is written). The server gets MALLOC_ARENA_MAX=2 as `npm start` sets it;
// BENCH_MALLOC_ARENA_MAX= (empty) leaves glibc's default, as before it was set.
import fs from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { ROOT, SERVER_NODE_FLAGS, startChild } from './lib/processes';
import { printTable, writeReport, type Row } from './lib/report';
import { round } from './lib/stats';

const SERVER_ROOT = process.env.BENCH_SERVER_ROOT ?? ROOT;
const MALLOC_ARENA_MAX = process.env.BENCH_MALLOC_ARENA_MAX ?? '2';
/**
 * Long enough for the image model to load after the start (in the background) and, after the
 * uploads, for the image check of an accepted post to finish and the heap to settle.
 */
const SETTLE_MS = 10_000;

const mb = (kb: number) => round(kb / 1024);

/** A field of /proc/<pid>/status, in kB. */
function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? NaN);
}

/** Resets the process's peak RSS (VmHWM) to its RSS now (proc(5), clear_refs). */
const resetPeak = (pid: number) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** Interlaced (Adam7), a PNG cannot be decoded line by line: the decoder holds all its pixels. */
function rgbaPng(width: number, height: number, interlaced = false): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 4, background: { r: 250, g: 190, b: 40, alpha: 0.5 } },
  })
    .png({ compressionLevel: 9, progressive: interlaced })
    .toBuffer();
}

async function signUp(url: string) {
  const res = await fetch(`${url}/api/lolgram/users/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench_uploader', password: 'bench password' }),
  });
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  return { id, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] };
}

async function upload(url: string, user: { id: string; cookie: string }, image: Buffer) {
  const form = new FormData();
  form.append('caption', 'bench');
  form.append('userId', user.id);
  form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'image.png');
  const res = await fetch(`${url}/api/lolgram/posts`, {
    method: 'POST',
    body: form,
    headers: { cookie: user.cookie },
  });
  await res.arrayBuffer();
  return res.status;
}

async function measure(label: string, image: Buffer, count: number): Promise<Row> {
  const dataDir = fs.mkdtempSync('/tmp/bench-image-bomb-');
  const app = await startChild(
    [...SERVER_NODE_FLAGS, '--import', 'tsx', 'backend/src/main.ts'],
    {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      ...(MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX } : {}),
    },
    SERVER_ROOT,
  );
  const pid = app.child.pid!;
  try {
    const user = await signUp(app.url);
    await sleep(SETTLE_MS);
    const before = status(pid, 'VmRSS');
    resetPeak(pid);
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: count }, () => upload(app.url, user, image)),
    );
    const seconds = (performance.now() - started) / 1000;
    const peak = status(pid, 'VmHWM');
    await sleep(SETTLE_MS);
    const tally: Record<string, number> = {};
    for (const code of statuses) tally[`HTTP ${code}`] = (tally[`HTTP ${code}`] ?? 0) + 1;
    return {
      name: `${label}, ${count} at once`,
      figures: {
        s: round(seconds),
        ...tally,
        'RSS before MB': mb(before),
        'peak RSS MB': mb(peak),
        [`RSS ${SETTLE_MS / 1000} s after MB`]: mb(status(pid, 'VmRSS')),
      },
    };
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const loadAtStart = os.loadavg()[0];
  const images: [string, Buffer][] = [
    ['40,000 x 1,000 RGBA PNG', await rgbaPng(40_000, 1_000)],
    ['8,000 x 5,000 RGBA PNG', await rgbaPng(8_000, 5_000)],
    ['8,000 x 5,000 RGBA PNG, interlaced', await rgbaPng(8_000, 5_000, true)],
  ];
  const rows: Row[] = [];
  for (const [name, image] of images) {
    const label = `${name} (${round(image.length / 1024)} kB)`;
    for (const count of [1, 4]) {
      console.log(`${label}, ${count} at once`);
      rows.push(await measure(label, image, count));
    }
  }
  printTable(rows);
  const load = `The machine's 1-minute load average was ${round(loadAtStart)} at the start and ${round(os.loadavg()[0])} at the end, on ${os.cpus().length} cores (shared: times vary with it, memory much less).`;
  console.log(load);
  if (SERVER_ROOT === ROOT && MALLOC_ARENA_MAX === '2') {
    writeReport(
      'image-bomb',
      'Image bombs and the largest accepted image',
      'npx tsx bench/image-bomb.bench.ts',
      rows,
      [
        'Each line on a fresh server (embedded Postgres, the image check on); peak RSS is VmHWM, reset just before the uploads, RSS after is VmRSS ten seconds after the last answer; RSS before is read ten seconds after the start, once the image model has loaded.',
        'The server refuses a side over 8,000 px by the header before any pixel is decoded; it decodes an accepted image once, one at a time per process; it runs with MALLOC_ARENA_MAX=2, as `npm start` sets it.',
        load,
      ],
    );
  }
}

await main();
