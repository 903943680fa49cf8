import fs from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files';

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
  /**
   * Removes every image of one owner (`posts/<postId>/`, `avatars/<userId>/`): those the database
   * names, their copies, and any it lost track of (an upload cut short, a replaced avatar whose
   * deletion failed). An owner with none is fine.
   */
  deleteOwner(owner: ImageOwner): Promise<void>;
  /** Fails with a message that says what to fix when the store cannot be used; run at start-up. */
  check(): Promise<void>;
}

/** Whose images a folder holds: a post's or a user's (their avatars). */
export interface ImageOwner {
  kind: 'posts' | 'avatars';
  id: string;
}

const OWNER_ID = /^[0-9a-f-]{36}$/;

/** The folder of an owner's keys, `kind/id/`; anything else never reaches a store. */
export function ownerPrefix({ kind, id }: ImageOwner): string {
  if ((kind !== 'posts' && kind !== 'avatars') || !OWNER_ID.test(id)) {
    throw new Error(`invalid image owner: ${JSON.stringify({ kind, id })}`);
  }
  return `${kind}/${id}/`;
}

const KEY = /^[a-z]+\/[0-9a-f-]{36}\/[\w-]+\.(jpg|webp)$/;
const VARIANT = /^(.+)-(\d{1,4})w\.webp$/;

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

/** The key of the WebP copy, `width` pixels wide, of the image under `key` (a .jpg key). */
export function variantKey(key: string, width: number): string {
  return `${key.replace(/\.jpg$/, '')}-${width}w.webp`;
}

/** The image a copy's key was made from, and the copy's width; null for a key that is no copy. */
export function variantOf(key: string): { key: string; width: number } | null {
  const match = VARIANT.exec(key);
  return match && isImageKey(key) ? { key: `${match[1]}.jpg`, width: Number(match[2]) } : null;
}

/** The copies of an image as an `<img srcset>`; undefined when none were made. */
export function srcsetOf(key: string, widths: readonly number[]): string | undefined {
  if (widths.length === 0) return undefined;
  return widths.map((width) => `${imageUrl(variantKey(key, width))} ${width}w`).join(', ');
}

export function imageContentType(key: string): string {
  return key.endsWith('.webp') ? 'image/webp' : 'image/jpeg';
}

export class LocalImageStore implements ImageStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, checkedImageKey(key));
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    // Written aside and renamed, so that a reader never sees half a file.
    const temp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temp, bytes, { mode: PRIVATE_FILE_MODE });
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

  async deleteOwner(owner: ImageOwner): Promise<void> {
    await fs.rm(path.join(this.root, ownerPrefix(owner)), { recursive: true, force: true });
  }

  async check(): Promise<void> {
    try {
      await fs.mkdir(this.root, { recursive: true, mode: PRIVATE_DIR_MODE });
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
