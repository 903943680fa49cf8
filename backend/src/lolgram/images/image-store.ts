import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where image bytes live: local disk by default, an S3-compatible bucket when several nodes serve
 * the app. Every call refuses a key that is not an image key.
 */
export interface ImageStore {
  /** Stores the bytes under the key, replacing what it held. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes under the key, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the key; a key that holds nothing is fine. */
  delete(key: string): Promise<void>;
  /** Fails with a message that says what to fix when the store cannot be used; run at start-up. */
  check(): Promise<void>;
}

const KEY = /^[a-z]+\/[0-9a-f-]{36}\/[\w-]+\.jpg$/;

export function isImageKey(key: string): boolean {
  return KEY.test(key);
}

/** The key itself; anything else (a path that climbs out, say) never reaches a store. */
export function checkedImageKey(key: string): string {
  if (!isImageKey(key)) throw new Error(`invalid image key: ${JSON.stringify(key)}`);
  return key;
}

/** Where clients fetch an image: the backend serves every image and decides who may see it. */
export const imageUrl = (key: string) => `/api/lolgram/images/${key}`;

export class LocalImageStore implements ImageStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, checkedImageKey(key));
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
    const file = this.file(key);
    try {
      return await fs.readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async check(): Promise<void> {
    try {
      await fs.mkdir(this.root, { recursive: true });
      await fs.access(this.root, fs.constants.W_OK);
    } catch (error) {
      throw new Error(
        `The image directory ${this.root} cannot be written (${(error as Error).message}): check DATA_DIR`,
      );
    }
  }
}

/** The post an image key belongs to (`posts/<postId>/...`), or null for other keys (avatars). */
export function postIdOfImageKey(key: string): string | null {
  const [kind, id] = key.split('/');
  return kind === 'posts' && isImageKey(key) ? id : null;
}
