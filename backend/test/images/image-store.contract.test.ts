import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalImageStore, type ImageStore } from '../../src/images/image-store';
import { S3ImageStore } from '../../src/images/s3-image-store';
import { startS3Server } from './s3-server';

interface OpenStore {
  store: ImageStore;
  close(): Promise<void>;
}

const stores: [string, () => Promise<OpenStore>][] = [
  [
    'local disk',
    async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-images-'));
      return {
        store: new LocalImageStore(path.join(root, 'images')),
        close: () => fs.rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    'an S3 bucket',
    async () => {
      const s3 = await startS3Server();
      await s3.createBucket('images');
      return { store: new S3ImageStore(s3.storeOptions('images')), close: () => s3.stop() };
    },
  ],
];

const postKey = (name = 'full') => `posts/${randomUUID()}/${randomUUID()}-${name}.jpg`;
const avatarKey = () => `avatars/${randomUUID()}/${randomUUID()}.jpg`;
// Every byte value, so that no text decoding on the way could pass unnoticed.
const someBytes = () =>
  Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(4096)]);

describe.each(stores)('the image store contract on %s', (_name, open) => {
  let opened: OpenStore;
  let store: ImageStore;
  beforeAll(async () => {
    opened = await open();
    store = opened.store;
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('passes its start-up check', async () => {
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('gives back the exact bytes it was given, for every kind of key', async () => {
    for (const key of [postKey('full'), postKey('thumb'), avatarKey()]) {
      const bytes = someBytes();
      await store.put(key, bytes);
      const read = await store.get(key);
      expect(read).toBeInstanceOf(Buffer);
      expect(read!.equals(bytes)).toBe(true);
    }
  });

  it('answers null for a key that holds nothing', async () => {
    expect(await store.get(postKey())).toBeNull();
    expect(await store.get(avatarKey())).toBeNull();
  });

  it('deletes a key, and leaves the others', async () => {
    const [gone, kept] = [postKey('full'), postKey('thumb')];
    await store.put(gone, someBytes());
    const keptBytes = someBytes();
    await store.put(kept, keptBytes);
    await store.delete(gone);
    expect(await store.get(gone)).toBeNull();
    expect((await store.get(kept))!.equals(keptBytes)).toBe(true);
  });

  it('deletes a key that holds nothing without a complaint, twice', async () => {
    const key = postKey();
    await expect(store.delete(key)).resolves.toBeUndefined();
    await store.put(key, someBytes());
    await store.delete(key);
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it("deletes every image of one owner, copies and untracked files too, and nobody else's", async () => {
    const [postId, other, userId] = [randomUUID(), randomUUID(), randomUUID()];
    const owned = [
      `posts/${postId}/${randomUUID()}-full.jpg`,
      `posts/${postId}/${randomUUID()}-full-480w.webp`,
      `posts/${postId}/${randomUUID()}-thumb.jpg`,
    ];
    const avatars = [
      `avatars/${userId}/${randomUUID()}.jpg`,
      `avatars/${userId}/${randomUUID()}.jpg`,
    ];
    const kept = `posts/${other}/${randomUUID()}-full.jpg`;
    for (const key of [...owned, ...avatars, kept]) await store.put(key, someBytes());
    await store.deleteOwner({ kind: 'posts', id: postId });
    await store.deleteOwner({ kind: 'avatars', id: userId });
    for (const key of [...owned, ...avatars]) expect(await store.get(key)).toBeNull();
    expect(await store.get(kept)).not.toBeNull();
    await expect(store.deleteOwner({ kind: 'posts', id: postId })).resolves.toBeUndefined();
    await expect(store.deleteOwner({ kind: 'posts', id: '../..' })).rejects.toThrow(
      /invalid image owner/,
    );
  });

  it('replaces the bytes of a key it is given again', async () => {
    const key = avatarKey();
    await store.put(key, someBytes());
    const second = someBytes();
    await store.put(key, second);
    expect((await store.get(key))!.equals(second)).toBe(true);
  });

  it('refuses a key that is not an image key, on every call', async () => {
    const bad = [
      '',
      '../../etc/passwd',
      `posts/${randomUUID()}/../../../escape.jpg`,
      `posts/${randomUUID()}/x.png`,
      `/posts/${randomUUID()}/x.jpg`,
      `Posts/${randomUUID()}/x.jpg`,
    ];
    for (const key of bad) {
      await expect(store.put(key, someBytes())).rejects.toThrow(/invalid image key/);
      await expect(store.get(key)).rejects.toThrow(/invalid image key/);
      await expect(store.delete(key)).rejects.toThrow(/invalid image key/);
    }
  });
});
