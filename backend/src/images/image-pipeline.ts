import sharp, { type Metadata, type Sharp } from 'sharp';
import { HttpError } from '../core/errors';

/**
 * What an upload may declare in its header, checked before any pixel is decoded (decompression
 * bombs). The area alone lets a 40,000 x 1,000 strip through, which takes seconds and gigabytes to
 * decode: each side is capped too (a photo needs no side over 8,000 px), and so are the bytes the
 * pixels take once decoded, which depth and channels multiply (a 16-bit image counts twice).
 */
export const IMAGE_INPUT_LIMITS = {
  maxSide: 8_000,
  maxPixels: 40_000_000,
  /** 8-bit RGBA at the largest area: 160 MB, what an interlaced PNG holds while it is decoded. */
  maxDecodedBytes: 160_000_000,
} as const;

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif']);
const BYTES_PER_SAMPLE: Record<Metadata['depth'], number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  double: 8,
  complex: 8,
  dpcomplex: 16,
};
const FULL_SIZE = 1080;
const THUMB_SIZE = 320;
/**
 * The widths of the WebP copies made at upload, which the screens pick from (srcset) by the size
 * they show an image at: a post's image in the feed (full width of a phone or a 512 px column),
 * its square tile in a 3-column grid, an avatar (24 to 96 px). A feed card on a phone of 360 to
 * 412 px at 1.75 to 2 device pixels a pixel takes the 768 px copy (about two thirds of the
 * 1080 px one's bytes): the feed's first photo is the largest thing LOLGram's page paints.
 */
export const COPY_WIDTHS = {
  image: [320, 640, 768, 1080],
  tile: [320, 640],
  avatar: [96, 192, 384],
} as const;
const TILE_SIZE = Math.max(...COPY_WIDTHS.tile);

const { maxSide, maxPixels, maxDecodedBytes } = IMAGE_INPUT_LIMITS;
export const imageMessages = {
  unsupported: 'Unsupported image: use a JPEG, PNG, WebP or GIF',
  tooLong: `Image is too large: each side must be at most ${maxSide.toLocaleString('en')} pixels`,
  tooManyPixels: `Image has too many pixels: at most ${maxPixels / 1_000_000} million`,
  tooDeep: `Image is too large to process: at most ${maxPixels / 1_000_000} million pixels of 8 bits per channel`,
  unreadable: 'The image could not be read',
} as const;

/** A WebP copy of an image, `width` pixels wide. */
export interface ImageCopy {
  width: number;
  bytes: Buffer;
}

export interface ProcessedPostImage {
  full: Buffer;
  thumbnail: Buffer;
  /** WebP copies of the full image. */
  copies: ImageCopy[];
  /** WebP copies of the square thumbnail. */
  thumbnailCopies: ImageCopy[];
}

export interface ProcessedAvatar {
  /** The square. */
  full: Buffer;
  /** WebP copies of the square. */
  copies: ImageCopy[];
}

/** An upload's size as it will be shown (EXIF orientation applied), read from its header. */
export interface ImageHeader {
  width: number;
  height: number;
}

/**
 * libvips' settings for this process, set once at start-up: no operation cache (it would keep
 * decoded images alive after the answer) and one thread per image (the upload queue bounds the
 * images at once; on glibc every further thread can hold an arena of freed memory for ever).
 */
export function configureImageLibrary(): void {
  sharp.cache(false);
  sharp.concurrency(1);
}

/**
 * Reads an upload's header and refuses it, before any pixel is decoded, when it is not a JPEG,
 * PNG, WebP or GIF or exceeds IMAGE_INPUT_LIMITS.
 */
export async function readImageHeader(input: Buffer): Promise<ImageHeader> {
  let metadata: Metadata;
  try {
    // Reading the header decodes no pixels, whatever size it declares.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new HttpError(415, imageMessages.unsupported);
  }
  const { width, height } = metadata.autoOrient;
  if (!ACCEPTED.has(metadata.format) || !(width > 0) || !(height > 0)) {
    throw new HttpError(415, imageMessages.unsupported);
  }
  if (width > maxSide || height > maxSide) throw new HttpError(413, imageMessages.tooLong);
  if (width * height > maxPixels) throw new HttpError(413, imageMessages.tooManyPixels);
  const decodedBytes =
    width * height * metadata.channels * (BYTES_PER_SAMPLE[metadata.depth] ?? Infinity);
  if (!(decodedBytes <= maxDecodedBytes)) throw new HttpError(413, imageMessages.tooDeep);
  return { width, height };
}

/** 8-bit pixels in memory, from which every output is made. */
interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

const fromPixels = ({ data, width, height, channels }: Pixels): Sharp =>
  sharp(data, { raw: { width, height, channels } });

/**
 * Decodes the upload once, auto-rotated, straight to the smallest size every output can be made
 * from: an avatar's square; for a post, the full size's longer edge (1080) and the largest tile's
 * square (640) within it: 5 million pixels at most (8,000 x 640), whatever the upload's size.
 */
async function decodeOnce(input: Buffer, header: ImageHeader, square: boolean): Promise<Pixels> {
  const landscape = header.width >= header.height;
  const side = Math.min(FULL_SIZE, header.width, header.height);
  const { data, info } = await sharp(input, { limitInputPixels: maxPixels, failOn: 'error' })
    .autoOrient()
    .resize(
      square
        ? { width: side, height: side, fit: 'cover' }
        : {
            width: landscape ? FULL_SIZE : TILE_SIZE,
            height: landscape ? TILE_SIZE : FULL_SIZE,
            fit: 'outside',
            withoutEnlargement: true,
          },
    )
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * Copies at each width, never larger than the source: a width the source cannot fill is made once,
 * at the source's own size, and named by the width it has. `square`: square copies, cut from the
 * middle. One after another: a job holds one of libuv's threads at a time.
 */
async function copies(
  source: Pixels,
  widths: readonly number[],
  square = false,
): Promise<ImageCopy[]> {
  const byWidth = new Map<number, Buffer>();
  for (const width of widths) {
    const side = Math.min(width, source.width, source.height);
    const { data, info } = await fromPixels(source)
      .resize(
        square
          ? { width: side, height: side, fit: 'cover' }
          : { width, height: width, fit: 'inside', withoutEnlargement: true },
      )
      .webp({ quality: 78 })
      .toBuffer({ resolveWithObject: true });
    if (!byWidth.has(info.width)) byWidth.set(info.width, data);
  }
  return [...byWidth].map(([width, bytes]) => ({ width, bytes }));
}

/**
 * A post's image, from an upload whose header readImageHeader accepted: decoded once,
 * auto-rotated, metadata (EXIF, GPS) dropped; a full size and a square grid thumbnail, and their
 * WebP copies by width.
 */
export async function renderPostImage(
  input: Buffer,
  header: ImageHeader,
): Promise<ProcessedPostImage> {
  try {
    const pixels = await decodeOnce(input, header, false);
    const full = await fromPixels(pixels)
      .resize({ width: FULL_SIZE, height: FULL_SIZE, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    const thumbnail = await fromPixels(pixels)
      .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover' })
      .jpeg({ quality: 80 })
      .toBuffer();
    return {
      full,
      thumbnail,
      copies: await copies(pixels, COPY_WIDTHS.image),
      thumbnailCopies: await copies(pixels, COPY_WIDTHS.tile, true),
    };
  } catch {
    throw new HttpError(415, imageMessages.unreadable);
  }
}

/** An avatar, as a post's image is made: a square, and its WebP copies by width. */
export async function renderAvatar(input: Buffer, header: ImageHeader): Promise<ProcessedAvatar> {
  try {
    const pixels = await decodeOnce(input, header, true);
    return {
      full: await fromPixels(pixels).jpeg({ quality: 85, mozjpeg: true }).toBuffer(),
      copies: await copies(pixels, COPY_WIDTHS.avatar, true),
    };
  } catch {
    throw new HttpError(415, imageMessages.unreadable);
  }
}
