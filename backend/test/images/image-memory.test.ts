import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import { makeAccount, makePng, makePost, type Account } from '../lolgram/builders';

const MB = 1024 * 1024;

/**
 * How much the server may grow while four of the largest images it accepts upload at once: they
 * are decoded one at a time (the image queue), and an interlaced 8,000 x 5,000 RGBA PNG holds its
 * 160 MB of pixels while it is decoded, plus libvips' working buffers and the uploads themselves.
 * Four decoded at once would need over 640 MB.
 */
const LARGEST_BOUND = 300 * MB;
/**
 * How much it may grow while refusing four 40,000 x 1,000 strips: their 160 MB of pixels each are
 * never decoded; what remains is the requests themselves.
 */
const REFUSED_BOUND = 40 * MB;

/** A figure of /proc/<pid>/status, in bytes. */
function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024;
}

/** The peak RSS a process reaches while `work` runs, above its RSS before. */
async function growthDuring(pid: number, work: () => Promise<void>): Promise<number> {
  const before = memoryOf(pid, 'VmRSS');
  // Resets VmHWM to the RSS of now (proc(5), clear_refs).
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  await work();
  return memoryOf(pid, 'VmHWM') - before;
}

describe.runIf(process.platform === 'linux')('the server process under image uploads', () => {
  let server: ServerProcess;
  let pid: number;
  let alice: Account;
  beforeAll(async () => {
    server = await spawnServer({ MODERATION_IMAGE_CHECK: 'off', DATABASE_URL: '', REDIS_URL: '' });
    pid = server.child.pid!;
    alice = await makeAccount(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it(`refuses four 40,000 x 1,000 strips at once growing less than ${REFUSED_BOUND / MB} MB`, async () => {
    const strip = await makePng(40_000, 1_000);
    const growth = await growthDuring(pid, async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, () => makePost(alice, strip)));
      expect(answers.map((res) => res.status)).toEqual([413, 413, 413, 413]);
    });
    expect(growth).toBeLessThan(REFUSED_BOUND);
  });

  it(`accepts four interlaced 8,000 x 5,000 RGBA PNGs at once growing less than ${LARGEST_BOUND / MB} MB`, async () => {
    const largest = await makePng(8_000, 5_000, { interlaced: true });
    const growth = await growthDuring(pid, async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, () => makePost(alice, largest)));
      expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201]);
    });
    expect(growth).toBeLessThan(LARGEST_BOUND);
  });
});
