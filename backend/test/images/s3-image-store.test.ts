import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ImageStore } from '../../src/images/s3-image-store';
import { startS3Server, type TestS3Server } from './s3-server';

/** A loopback port that nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the S3 image store when the bucket cannot be used', () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it('fails its start-up check on a bucket that does not exist, naming it and S3_BUCKET', async () => {
    const store = new S3ImageStore(s3.storeOptions('no-such-bucket'));
    await expect(store.check()).rejects.toThrow(
      `The S3 bucket "no-such-bucket" at ${s3.endpoint} does not exist: create it, or correct S3_BUCKET`,
    );
  });

  it('fails its start-up check on an endpoint nobody answers at, naming S3_ENDPOINT', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const store = new S3ImageStore({ ...s3.storeOptions('images'), endpoint });
    await expect(store.check()).rejects.toThrow(
      new RegExp(
        `"images" at ${endpoint} cannot be reached \\(.*ECONNREFUSED.*\\): check S3_ENDPOINT`,
      ),
    );
  });

  it('does not pass a missing bucket off as a missing image', async () => {
    const store = new S3ImageStore(s3.storeOptions('no-such-bucket'));
    const key = `posts/${randomUUID()}/${randomUUID()}-full.jpg`;
    await expect(store.get(key)).rejects.toThrow();
    await expect(store.delete(key)).rejects.toThrow();
  });
});
