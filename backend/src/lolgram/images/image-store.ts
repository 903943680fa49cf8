import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where image bytes live. Local disk by default; an S3-compatible store implements the same three
 * calls when several nodes serve the app.
 */
export interface ImageStore {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

const KEY = /^[a-z]+\/[0-9a-f-]{36}\/[\w-]+\.jpg$/;

export function isImageKey(key: string): boolean {
  return KEY.test(key);
}

/** Where clients fetch an image: the backend serves every image and decides who may see it. */
export const imageUrl = (key: string) => `/api/lolgram/images/${key}`;

export class LocalImageStore implements ImageStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    if (!isImageKey(key)) throw new Error(`invalid image key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed, so that a reader never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }
}

/** The store every feature reads and writes images in, chosen once from the configuration. */
export function imageStoreFor(dataDir: string): ImageStore {
  return new LocalImageStore(path.join(dataDir, 'images'));
}

/** The post an image key belongs to (`posts/<postId>/...`), or null for other keys (avatars). */
export function postIdOfImageKey(key: string): string | null {
  const [kind, id] = key.split('/');
  return kind === 'posts' && isImageKey(key) ? id : null;
}
