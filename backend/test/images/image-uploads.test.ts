import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors';
import { createRateLimits } from '../../src/core/limiter';
import type { ImageHeader } from '../../src/images/image-pipeline';
import { ImageUploads, UPLOADS_BUSY, type ImageRenderers } from '../../src/images/image-uploads';
import { makeJpeg, makePng } from '../lolgram/builders';

/** Renders that finish only when the test says so, counting how many run at once. */
function heldRenders() {
  const started: { kind: string; header: ImageHeader; finish: () => void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const hold = <T>(kind: string, header: ImageHeader, value: T) =>
    new Promise<T>((resolve) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      started.push({
        kind,
        header,
        finish: () => {
          running -= 1;
          resolve(value);
        },
      });
    });
  const bytes = Buffer.from('rendered');
  const render: ImageRenderers = {
    post: (_input, header) =>
      hold('post', header, { full: bytes, thumbnail: bytes, copies: [], thumbnailCopies: [] }),
    avatar: (_input, header) => hold('avatar', header, { full: bytes, copies: [] }),
  };
  return {
    render,
    started,
    get mostAtOnce() {
      return mostAtOnce;
    },
  };
}

describe('the image queue', () => {
  it('renders one upload at a time with `waiting` more queued; past that 503 with Retry-After, not counted against the user', async () => {
    const held = heldRenders();
    const perUser = createRateLimits(null, `queue-test-${Date.now()}`)('upload', {
      limit: 4,
      windowMs: 60_000,
    });
    const uploads = new ImageUploads(
      perUser,
      { running: 1, waiting: 1, retryAfterSeconds: 3 },
      held.render,
    );
    const jpeg = await makeJpeg({ width: 300, height: 200 });
    const first = uploads.post('alice', jpeg);
    await expect.poll(() => held.started.length).toBe(1);
    // The first runs with the size its header declared.
    expect(held.started[0]).toMatchObject({ kind: 'post', header: { width: 300, height: 200 } });
    // Of two more, whichever reaches the queue first waits; the other is refused at once.
    const more: Promise<unknown>[] = [uploads.avatar('alice', jpeg), uploads.post('alice', jpeg)];
    const refused = await Promise.any(
      more.map((upload, i) =>
        upload.then(
          () => Promise.reject(new Error('not refused')),
          () => i,
        ),
      ),
    );
    const error: unknown = await more[refused].catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, message: UPLOADS_BUSY, retryAfterSeconds: 3 });
    expect(held.started).toHaveLength(1);
    held.started[0].finish();
    await first;
    await expect.poll(() => held.started.length).toBe(2);
    expect(held.started[1].kind).toBe(refused === 0 ? 'post' : 'avatar');
    held.started[1].finish();
    await more[1 - refused];
    expect(held.mostAtOnce).toBe(1);

    // Three were sent and the refused one was given back: two more fit in the four.
    const fourth = uploads.post('alice', jpeg);
    await expect.poll(() => held.started.length).toBe(3);
    held.started[2].finish();
    await fourth;
    const fifth = uploads.post('alice', jpeg);
    await expect.poll(() => held.started.length).toBe(4);
    held.started[3].finish();
    await fifth;
    await expect(uploads.post('alice', jpeg)).rejects.toMatchObject({ status: 429 });
  });

  it('refuses a bomb by its header without taking a place in the queue', async () => {
    const held = heldRenders();
    const perUser = createRateLimits(null, `queue-test-${Date.now()}`)('upload', {
      limit: 10,
      windowMs: 60_000,
    });
    const uploads = new ImageUploads(perUser, { running: 1, waiting: 0 }, held.render);
    const busy = uploads.post('bob', await makeJpeg());
    await expect.poll(() => held.started.length).toBe(1);
    // The queue is full, yet the strip is told what is wrong with it, not to come back later.
    await expect(uploads.post('bob', await makePng(40_000, 1_000))).rejects.toMatchObject({
      status: 413,
    });
    held.started[0].finish();
    await busy;
    expect(held.started).toHaveLength(1);
  });
});
